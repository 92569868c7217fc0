"""A converted GGUF's faster weight layout: chosen once, in the background, by a real check.

The first open of a GGUF file converts it into OpenVINO IR through GenAI's reader
(:mod:`pipelines.gguf_cache`), and that model answers at once. Then :func:`choose_layout`
makes the converted model exact (GenAI rounds the 4-bit formats' per-group minimums:
:mod:`pipelines.gguf_exact`), and tries faster layouts (:mod:`pipelines.weight_layout`) in the
order the engine benchmark ranks them, each checked against the exact model on a fixed text
(:mod:`pipelines.layout_quality`). The first that keeps quality is saved beside the converted
model, in ``relaid/``, and later opens load it; when none does, the exact model is saved there
(the file's own layout, read as llama.cpp reads it). The decision is kept in ``layout.json``,
so it is made once per file.

Nothing half-made is ever loaded: the re-laid-out model is written in a stage folder renamed
into place when complete, and ``layout.json`` is written last, atomically. Two processes
opening the same file do not both convert: a lock file holds the process id of the one that
does (a lock whose process is gone is taken over).

REPL use::

    folder = Path("~/.cache/ov-studio/gguf/<digest>")
    decision = choose_layout(folder, Path("model.Q4_1.gguf"), CancelToken(), print)
    decision.layout, decision.checks
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from pipelines.core import CancelToken, InvalidInputError, PipelineError, Progress
from pipelines.files import staged_folder, write_text_atomic
from pipelines.gguf_exact import restore_minimums
from pipelines.layout_quality import MAX_PERPLEXITY_RISE, compare, read_text, text_tokens
from pipelines.weight_layout import Quantisation, WeightLayout, relayout

log = logging.getLogger(__name__)

RELAID_FOLDER = "relaid"
LAYOUT_FILE = "layout.json"
LOCK_FILE = ".relayout.lock"
MODEL_FILE = "openvino_model.xml"
_TOKENIZER_FILES = (
    "openvino_tokenizer.xml",
    "openvino_tokenizer.bin",
    "openvino_detokenizer.xml",
    "openvino_detokenizer.bin",
)

CANDIDATES = (
    # The engine benchmark's decode ranking of the same weights (engines.json, 2026-11-29):
    # int4 symmetric channel-wise 1.23x llama.cpp, group-wise 1.05-1.14x, the GGUF's Q4_1 1.01x;
    # an 8-bit output layer per channel instead of per group of 32 keeps the 4-bit matrices.
    WeightLayout(body=Quantisation(4), head=Quantisation(8)),
    WeightLayout(body=Quantisation(4, 128), head=Quantisation(8)),
    WeightLayout(body=Quantisation(4, 64), head=Quantisation(8)),
    WeightLayout(body=Quantisation(4, 32), head=Quantisation(8)),
    WeightLayout(body=None, head=Quantisation(8)),
)

EXACT = "the file's own, read exactly"
"""The layout kept when no faster one passes: the file's own, with its exact minimums."""
AS_READ = "the file's own, as OpenVINO reads it"
"""GenAI's reading of the file (minimums rounded), checked for the record."""

OnProgress = Callable[[Progress], None]


class RelayoutBusyError(PipelineError):
    """Another process is choosing this model's layout now."""


@dataclass(frozen=True)
class LayoutDecision:
    """What a converted GGUF runs on: a re-laid-out model, or the GGUF's own layout."""

    layout: str
    """The chosen layout's name, or ``""``: the GGUF's own layout is kept."""
    checks: tuple[dict[str, Any], ...] = field(default=())
    """Every candidate tried, in order: its name and quality figures, or its error."""

    @property
    def relaid(self) -> bool:
        return bool(self.layout)

    @property
    def kept_check(self) -> dict[str, Any] | None:
        """The chosen layout's quality figures (None: the file's own layout is kept)."""
        return next((c for c in self.checks if c.get("layout") == self.layout), None)

    @property
    def as_read_check(self) -> dict[str, Any] | None:
        """OpenVINO's own reading of the file against the exact one (None: it is exact)."""
        return next((c for c in self.checks if c.get("layout") == AS_READ), None)

    @property
    def closest_check(self) -> dict[str, Any] | None:
        """When no faster layout passed: the one closest in perplexity (None: none ran)."""
        tried = [c for c in self.checks if "perplexity_rise" in c and c["layout"] != AS_READ]
        return min(tried, key=lambda c: float(c["perplexity_rise"])) if tried else None

    def to_dict(self) -> dict[str, Any]:
        return {"layout": self.layout, "checks": list(self.checks)}


def decided_layout(folder: Path) -> LayoutDecision | None:
    """The decision kept in a converted GGUF's cache ``folder``, or None (not made yet, or
    its record is damaged: it is made again)."""
    try:
        record = json.loads((folder / LAYOUT_FILE).read_text(encoding="utf-8"))
        layout, checks = record["layout"], record["checks"]
        if not isinstance(layout, str) or not isinstance(checks, list):
            raise TypeError("layout.json has the wrong shape")
        if not all(isinstance(check, dict) for check in checks):
            raise TypeError("layout.json has the wrong shape")
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.info("layout decision in %s is damaged (%s); deciding again", folder, error)
        return None
    return LayoutDecision(layout, tuple(checks))


def relaid_model(folder: Path) -> Path | None:
    """The re-laid-out model's folder to load instead of ``folder``'s, or None."""
    decision = decided_layout(folder)
    relaid = folder / RELAID_FOLDER
    if decision is None or not decision.relaid:
        return None
    if any(not (relaid / name).is_file() for name in (MODEL_FILE, *_TOKENIZER_FILES)):
        return None
    return relaid


def forget_layout(folder: Path) -> None:
    """Drop a decision whose model does not load (the next open decides again)."""
    for path in (folder / LAYOUT_FILE,):
        path.unlink(missing_ok=True)
    shutil.rmtree(folder / RELAID_FOLDER, ignore_errors=True)


def choose_layout(
    folder: Path, gguf: Path, cancel: CancelToken, on_progress: OnProgress
) -> LayoutDecision:
    """Decide the weight layout of the converted ``gguf`` file in ``folder``.

    The converted model is first made exact (:func:`pipelines.gguf_exact.restore_minimums`):
    that is the reference every layout is checked against. :data:`CANDIDATES` are tried in
    order of speed; the first that keeps quality is kept. When none does, the exact model is
    kept if it differs from OpenVINO's own reading, else nothing changes.

    Raises:
        RelayoutBusyError: another process is deciding for this folder.
        Cancelled: ``cancel`` was set (nothing is kept; the next open tries again).
        OSError: the result could not be written (a full disk); nothing half-made is kept.
        InvalidInputError: ``gguf`` changed since it was converted, or the converted model
            cannot be read as a stateful language model.
    """
    import openvino as ov

    with _Lock(folder / LOCK_FILE):
        _check_unchanged(gguf, folder)
        source = folder / MODEL_FILE
        ids = text_tokens(folder)
        steps = len(CANDIDATES) + 2
        step = [0]

        def report(progress: Progress) -> None:
            share = progress.fraction or 0.0
            on_progress(Progress("relayout", round(100 * (step[0] + share)), 100 * steps))

        exact = ov.Core().read_model(str(source))
        made_exact = restore_minimums(exact, gguf, cancel)
        reference = read_text(exact, ids, cancel, report)
        checks: list[dict[str, Any]] = []
        if made_exact:
            step[0] += 1
            as_read_text = read_text(str(source), ids, cancel, report)
            as_read = compare(reference, as_read_text)
            checks.append({"layout": AS_READ, **as_read.to_dict()})
            if as_read.perplexity_rise < -MAX_PERPLEXITY_RISE:
                # The exact weights read the text worse than the rounded ones: the minimums
                # were not restored as the format means them. Trust OpenVINO's reading.
                log.warning("exact reading of %s is worse than OpenVINO's; not used", gguf)
                exact, made_exact = ov.Core().read_model(str(source)), 0
                reference = as_read_text
        for layout in CANDIDATES:
            step[0] += 1
            model = exact.clone()
            try:
                if relayout(model, layout, cancel, lambda _: None) == 0:
                    checks.append({"layout": layout.name, "error": "no weight to change"})
                    continue
            except InvalidInputError as error:
                checks.append({"layout": layout.name, "error": str(error)})
                continue
            check = compare(reference, read_text(model, ids, cancel, report))
            checks.append({"layout": layout.name, **check.to_dict()})
            log.info("layout %s of %s: %s", layout.name, folder.name, check)
            if check.passed:
                _check_unchanged(gguf, folder)  # it may have changed while it was read
                _save(model, folder)
                decision = LayoutDecision(layout.name, tuple(checks))
                break
        else:
            if made_exact:
                _check_unchanged(gguf, folder)
                _save(exact, folder)
                decision = LayoutDecision(EXACT, tuple(checks))
            else:
                decision = LayoutDecision("", tuple(checks))
        write_text_atomic(folder / LAYOUT_FILE, json.dumps(decision.to_dict(), indent=1))
        on_progress(Progress("relayout", 100 * steps, 100 * steps))
        return decision


def _check_unchanged(gguf: Path, folder: Path) -> None:
    """Refuse a file that is no longer the one converted into ``folder`` (its path, size
    and time differ from the conversion's record)."""
    from pipelines.gguf_cache import converted_folder

    if converted_folder(gguf, folder.parent) != folder:
        raise InvalidInputError(
            f"{gguf.name} changed since it was converted; the next load converts it again.",
            field="model",
        )


def _save(model: Any, folder: Path) -> None:
    """The re-laid-out model and the tokenizer beside it, whole or not at all."""
    import openvino as ov

    with staged_folder(folder / RELAID_FOLDER) as stage:
        ov.save_model(model, str(stage / MODEL_FILE), compress_to_fp16=False)
        for name in _TOKENIZER_FILES:
            try:
                os.link(folder / name, stage / name)
            except OSError:
                shutil.copyfile(folder / name, stage / name)


class _Lock:
    """A lock file holding this process's id; one whose process is gone is taken over."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> _Lock:
        for _ in range(2):
            try:
                descriptor = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            except FileExistsError:
                if self._holder_alive():
                    raise RelayoutBusyError(
                        "Another OV Studio window is making this model faster."
                    ) from None
                self.path.unlink(missing_ok=True)
                continue
            with os.fdopen(descriptor, "w") as file:
                file.write(str(os.getpid()))
            return self
        raise RelayoutBusyError("Another OV Studio window is making this model faster.")

    def __exit__(self, *exc: object) -> None:
        self.path.unlink(missing_ok=True)

    def _holder_alive(self) -> bool:
        try:
            holder = int(self.path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return False
        return holder != os.getpid() and psutil.pid_exists(holder)
