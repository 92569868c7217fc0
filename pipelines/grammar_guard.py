"""The grammar guard: every grammar a pipeline hands to GenAI is probed once, and its verdict kept.

Before a chat or serving pipeline starts an answer under a structured-output config, it asks
:meth:`GrammarGuard.check` for that config and its model's tokenizer. The first time, the
grammar is compiled in a child process (:func:`pipelines.grammar_probe.run_probe`) under memory
and CPU limits; one that goes over them, crashes the child, or that GenAI refuses is refused
here in one sentence (``field="json_schema"``), before this process compiles anything. The
verdict is kept in memory and on disk (one small JSON file per grammar and tokenizer, written
atomically; a damaged one is ignored), so a grammar used again costs a dictionary look-up.

A verdict measured under other limits still answers when it can: a grammar that fitted with
figures under today's limits fits, one that went over a limit as low as today's or lower is
refused, and otherwise it is probed again. Probes run one at a time: two at once could each
take the memory limit. A probe that could not start, or that the machine was too busy to
finish, is not kept (the first leaves the answer to the in-process compile, as before the
guard, and logs why).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.files import write_text_atomic
from pipelines.generation import structured_output_refusal
from pipelines.grammar_probe import GrammarSpec, ProbeLimits, ProbeTarget, Verdict, run_probe
from pipelines.json_grammar import grammar_spec

log = logging.getLogger(__name__)

FIELD = "json_schema"
CACHE_FORMAT = 1
"""Changes when what a verdict file holds, or how its key is made, changes."""
MAX_REMEMBERED = 1024
"""Verdicts kept in memory (the oldest is dropped first)."""
MAX_VERDICT_FILES = 4096
"""Verdict files kept on disk; past this, the oldest half is removed."""
TOKENIZER_FILES = (
    "openvino_tokenizer.xml",
    "openvino_tokenizer.bin",
    "openvino_detokenizer.xml",
    "openvino_detokenizer.bin",
)
MODEL_FILES = ("openvino_language_model.xml", "openvino_model.xml")
"""Where a model folder's logits are declared (a vision model's language model first)."""
_LOGITS = re.compile(rb'names="(?:[^"]*,)?logits(?:,[^"]*)?"[^>]*>\s*((?:<dim>-?\d+</dim>\s*)+)')

Describe = Callable[[Verdict], str]
"""The sentence for a refused verdict (the app passes translatable ones)."""


class GrammarGuard:
    """Probes each new (grammar, tokenizer) once, within limits, and keeps the verdicts.

    Thread-safe: a server checks from several threads; probes run one at a time.
    """

    def __init__(
        self,
        cache_dir: Path | None,
        limits: Callable[[], ProbeLimits] = ProbeLimits,
        describe: Describe | None = None,
        scratch: Path | None = None,
    ) -> None:
        """``cache_dir`` keeps the verdicts across runs (None: only in memory); ``limits`` is
        asked at each check (a setting may change); ``scratch`` holds the probe's synthetic
        model while it runs."""
        self._cache_dir = cache_dir
        self._limits = limits
        self._describe = describe or describe_verdict
        self._scratch = scratch
        self._remembered: dict[str, Verdict] = {}
        self._targets: dict[tuple[object, ...], ProbeTarget] = {}
        self._lock = threading.Lock()
        self._probing = threading.Lock()

    def check_schema(
        self, schema_text: str, compact: bool, model: Path, cancel: CancelToken | None = None
    ) -> None:
        """:meth:`check` the config a JSON answer following ``schema_text`` runs under
        (:func:`pipelines.json_grammar.grammar_spec`) for ``model`` (see :func:`probe_target`).

        A model whose tokenizer cannot be read is left to compile the grammar in this process,
        as before the guard (it was readable when the model loaded), and that is logged.

        Raises:
            as :meth:`check`.
        """
        try:
            target = self._target(model)
        except OSError as error:
            log.warning("The grammar cannot be tried first (%s); compiling it here.", error)
            return
        self.check(grammar_spec(schema_text, compact=compact), target, cancel)

    def check(
        self, spec: GrammarSpec, target: ProbeTarget, cancel: CancelToken | None = None
    ) -> None:
        """Return when ``spec`` may be compiled in this process for ``target``'s model.

        Raises:
            InvalidInputError: (field ``json_schema``) the grammar costs more than the limits,
                crashed its probe, or GenAI refuses it — one sentence.
            Cancelled: ``cancel`` was set while it was being probed.
        """
        key = verdict_key(spec, target)
        limits = self._limits()
        verdict = self._known(key, limits)
        if verdict is None:
            verdict = self._probe(key, spec, target, limits, cancel)
        if verdict is not None and not verdict.fits:
            raise InvalidInputError(self._describe(verdict), field=FIELD)

    def _target(self, model: Path) -> ProbeTarget:
        """``model``'s probe target, worked out again only when its files change."""
        facts: list[object] = [str(model)]
        files = [model / name for name in (*TOKENIZER_FILES, *MODEL_FILES)]
        for path in files if model.is_dir() else [model]:
            try:
                info = path.stat()
            except FileNotFoundError:
                facts.append(None)
                continue
            facts.append((info.st_size, info.st_mtime_ns))
        key = tuple(facts)
        with self._lock:
            target = self._targets.get(key)
        if target is None:
            target = probe_target(model)
            with self._lock:
                self._targets = {key: target}  # one model at a time is the usual case
        return target

    def _known(self, key: str, limits: ProbeLimits) -> Verdict | None:
        """The verdict under ``limits`` from what is remembered or on disk, if it tells."""
        with self._lock:
            known = self._remembered.get(key)
        if known is None:
            known = self._read(key)
            if known is not None:
                self._remember(key, known)
        return None if known is None else under(known, limits)

    def _probe(
        self,
        key: str,
        spec: GrammarSpec,
        target: ProbeTarget,
        limits: ProbeLimits,
        cancel: CancelToken | None,
    ) -> Verdict | None:
        while not self._probing.acquire(timeout=0.1):
            if cancel is not None and cancel.cancelled:
                raise Cancelled("grammar probe cancelled")
        try:
            known = self._known(key, limits)  # another thread may have probed it meanwhile
            if known is not None:
                return known
            verdict = run_probe(spec, target, limits, cancel, self._scratch)
        finally:
            self._probing.release()
        log.info("grammar probe (%s, %d chars): %s", spec.kind, len(spec.text), verdict)
        if verdict.outcome == "unavailable":
            log.warning("The grammar could not be tried first (%s); compiling it here.", verdict)
            return None
        if verdict.outcome != "timeout":  # a busy machine says nothing of the grammar
            self._remember(key, verdict)
            self._write(key, verdict)
        return verdict

    def _remember(self, key: str, verdict: Verdict) -> None:
        with self._lock:
            self._remembered.pop(key, None)
            self._remembered[key] = verdict
            while len(self._remembered) > MAX_REMEMBERED:
                del self._remembered[next(iter(self._remembered))]

    def _read(self, key: str) -> Verdict | None:
        if self._cache_dir is None:
            return None
        path = self._cache_dir / f"{key}.json"
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            if record.get("format") != CACHE_FORMAT:
                return None
            values = record["verdict"]
            return Verdict(
                outcome=values["outcome"],
                cpu_seconds=float(values["cpu_seconds"]),
                memory_bytes=int(values["memory_bytes"]),
                limit=float(values["limit"]),
                detail=str(values["detail"]),
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            log.info("ignoring the damaged grammar verdict %s: %s", path, error)
            return None

    def _write(self, key: str, verdict: Verdict) -> None:
        if self._cache_dir is None:
            return
        record = {"format": CACHE_FORMAT, "verdict": asdict(verdict)}
        try:
            write_text_atomic(self._cache_dir / f"{key}.json", json.dumps(record))
            _prune(self._cache_dir)
        except OSError as error:
            log.warning("The grammar verdict could not be kept in %s: %s", self._cache_dir, error)


def under(verdict: Verdict, limits: ProbeLimits) -> Verdict | None:
    """What ``verdict`` (measured under some limits) says under ``limits``: a verdict, or None
    when only a new probe can tell."""
    if verdict.outcome == "fits":
        if verdict.memory_bytes > limits.memory_bytes:
            return replace(verdict, outcome="memory", limit=limits.memory_bytes)
        if verdict.cpu_seconds > limits.cpu_seconds:
            return replace(verdict, outcome="cpu", limit=limits.cpu_seconds)
        return verdict
    if verdict.outcome == "memory" and limits.memory_bytes <= verdict.limit:
        return replace(verdict, limit=limits.memory_bytes)
    if verdict.outcome == "cpu" and limits.cpu_seconds <= verdict.limit:
        return replace(verdict, limit=limits.cpu_seconds)
    if verdict.outcome in ("crashed", "refused"):
        return verdict
    return None


def verdict_key(spec: GrammarSpec, target: ProbeTarget) -> str:
    """The name of a grammar's verdict for a tokenizer."""
    material = json.dumps([CACHE_FORMAT, target.identity, spec.kind, spec.text])
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


def probe_target(model: Path) -> ProbeTarget:
    """What the probe needs of ``model``: an OpenVINO folder (a chat or a vision-chat model,
    a GGUF file's converted one) or, without one, the ``.gguf`` file itself.

    Raises:
        OSError: the tokenizer's files cannot be read.
    """
    import openvino_genai as ov_genai

    version = str(ov_genai.__version__)
    if model.is_file():  # a GGUF read directly: identified by its path, size and time
        info = model.stat()
        facts = [version, str(model.resolve()), info.st_size, info.st_mtime_ns]
        identity = hashlib.sha256(json.dumps(facts).encode()).hexdigest()
        return ProbeTarget(model, None, identity)
    width = None
    for name in MODEL_FILES:
        if (model / name).is_file():
            width = logits_width(model / name)
            break
    digest = hashlib.sha256(json.dumps([version, width]).encode())
    for name in TOKENIZER_FILES:
        digest.update((model / name).read_bytes())
    return ProbeTarget(model, width, digest.hexdigest())


def logits_width(model_xml: Path) -> int | None:
    """The last dimension of the ``logits`` output in an OpenVINO IR file (None: not found or
    dynamic), read from its XML text without building the model."""
    try:
        text = model_xml.read_bytes()
    except OSError:
        return None
    found = _LOGITS.search(text)
    if found is None:
        return None
    dims = re.findall(rb"<dim>(-?\d+)</dim>", found.group(1))
    width = int(dims[-1]) if dims else -1
    return width if width > 0 else None


def describe_verdict(verdict: Verdict) -> str:
    """A sentence for a refused verdict, in English (the app passes translatable ones)."""
    if verdict.outcome == "memory":
        return (
            f"This JSON schema would take more than {_size(verdict.limit)} of memory to "
            "enforce; simplify it."
        )
    if verdict.outcome == "cpu":
        return (
            f"This JSON schema would take more than {verdict.limit:g} s of processor time to "
            "enforce; simplify it."
        )
    if verdict.outcome == "timeout":
        return (
            f"Trying this JSON schema took longer than {verdict.limit:g} s; try again when the "
            "computer is less busy, or simplify the schema."
        )
    if verdict.outcome == "refused":
        return refusal_sentence(verdict.detail)
    return "Trying this JSON schema crashed the process that tried it; simplify the schema."


def refusal_sentence(reason: str) -> str:
    """The sentence for a grammar GenAI refused, ``reason`` being its error message."""
    return structured_output_refusal(RuntimeError(reason)) or (
        f"The model cannot hold its answer to this JSON schema: {' '.join(reason.split())[:200]}"
    )


def _size(limit: float) -> str:
    megabytes = limit / 2**20
    if megabytes >= 1024:
        return f"{megabytes / 1024:g} GB"
    return f"{megabytes:g} MB"


def _prune(folder: Path) -> None:
    """Keep at most :data:`MAX_VERDICT_FILES` verdicts: the oldest half goes past that."""
    files = list(folder.glob("*.json"))
    if len(files) <= MAX_VERDICT_FILES:
        return

    def age(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:  # another process pruning too
            return 0.0

    files.sort(key=age)
    for path in files[: len(files) // 2]:
        path.unlink(missing_ok=True)
