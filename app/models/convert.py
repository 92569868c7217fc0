"""Convert and compress a Hugging Face checkpoint into an installed OpenVINO model.

The work runs in a separate process (:mod:`app.models.convert_job`, through optimum-intel and
NNCF) so the app never imports torch. This side checks the request before anything starts,
reads the job's JSON events as progress, kills the job's whole process tree on cancel, and
accepts the output only when it holds everything its task needs — optimum skips a tokenizer it
fails to convert without failing the export, so a chat model without ``openvino_tokenizer.xml``
is refused here. The job writes into a hidden work folder under the models folder; only a
validated model is renamed into place and registered, and any other ending removes the folder.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import psutil

from app.core.errors import StorageError, UserError
from app.core.model_tasks import TASK_NAMES, ModelTask
from app.core.texts import tr
from app.models.contracts import missing_files
from app.models.convert_plan import (
    LICENCE_NOTES,
    ConversionPlan,
    ConvertRequest,
    Weights,
    plan_conversion,
)
from app.models.inspect import detect_task
from app.models.process_tree import kill_tree, own_group
from app.models.registry import InstalledModel, ModelRegistry
from app.models.toolchain_env import (
    TOOLS_FOLDER,
    ToolchainMissingError,
    job_environment,
    toolchain_status,
)
from pipelines.core import Cancelled, CancelToken

log = logging.getLogger(__name__)

WORK_PREFIX = ".converting-"
"""Hidden work folders ``.converting-<pid>-<random>``: removed when their process is gone."""


@dataclass(frozen=True)
class ConvertProgress:
    """A stage of the conversion; ``step`` of ``steps`` for a progress bar."""

    stage: str
    message: str
    step: int
    steps: int
    elapsed_s: float


def convert_model(
    request: ConvertRequest,
    registry: ModelRegistry,
    *,
    on_progress: Callable[[ConvertProgress], None] | None = None,
    cancel: CancelToken | None = None,
    toolchain_dir: Path | None = None,
) -> InstalledModel:
    """Convert ``request.source``, validate the output and register it.

    ``toolchain_dir`` is the app's toolchain folder (``AppPaths.toolchain_dir``); by default the
    one beside the registry's models folder (both live in the app's data folder).

    Raises:
        ToolchainMissingError: no interpreter has the conversion toolchain; nothing was started.
        UserError: a bad request, an unsupported architecture, or a failed or incomplete
            conversion; nothing is left behind.
        Cancelled: ``cancel`` was set; the job was killed and its output removed.
    """
    cancel = cancel or CancelToken()
    plan = plan_conversion(request, registry)
    tools = toolchain_status(toolchain_dir or registry.models_dir.parent / TOOLS_FOLDER)
    if tools.python is None:
        raise ToolchainMissingError()
    models_dir = registry.models_dir
    models_dir.mkdir(parents=True, exist_ok=True)
    remove_abandoned_work(models_dir)
    work = Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-", dir=models_dir))
    steps = 4 if request.weights is Weights.FP16 else 5  # fp16 has no compression stage
    started = time.monotonic()

    def report(stage: str, message: str, step: int) -> None:
        if on_progress is not None:
            progress = ConvertProgress(stage, message, step, steps, time.monotonic() - started)
            on_progress(progress)

    try:
        output = work / "model"
        _run_job(plan, work, tools.python, report, cancel)
        report("validate", "Checking the converted model", steps - 1)
        _validate(output, plan)
        target = models_dir / plan.model_id
        output.rename(target)
        try:
            model = registry.register_owned(
                target,
                plan.task,
                source="converted",
                hub_id="" if plan.local else plan.source,
                licence=LICENCE_NOTES.get(plan.task)
                or (_licence(Path(plan.source)) if plan.local else ""),
            )
        except (UserError, StorageError):
            shutil.rmtree(target, ignore_errors=True)
            raise
        report("done", f"Installed {model.id}", steps)
        return model
    finally:
        shutil.rmtree(work, ignore_errors=True)


class Converter:
    """Converts into ``registry``'s models folder; ``convert`` has the shape a progress
    runner calls (``method(*args, cancel, on_progress)``), like ``Downloader.download``."""

    def __init__(self, registry: ModelRegistry, toolchain_dir: Path | None = None) -> None:
        self.registry = registry
        self.toolchain_dir = toolchain_dir

    def convert(
        self,
        request: ConvertRequest,
        cancel: CancelToken | None = None,
        on_progress: Callable[[ConvertProgress], None] | None = None,
    ) -> InstalledModel:
        """See :func:`convert_model`."""
        return convert_model(
            request,
            self.registry,
            on_progress=on_progress,
            cancel=cancel,
            toolchain_dir=self.toolchain_dir,
        )


def remove_abandoned_work(models_dir: Path) -> None:
    """Delete work folders of conversions whose process is gone (the app was killed)."""
    for folder in models_dir.glob(f"{WORK_PREFIX}*"):
        pid = folder.name.removeprefix(WORK_PREFIX).split("-")[0]
        if not pid.isdigit() or not psutil.pid_exists(int(pid)):
            log.info("removing abandoned conversion folder %s", folder)
            shutil.rmtree(folder, ignore_errors=True)


def _run_job(
    plan: ConversionPlan,
    work: Path,
    python: Path,
    report: Callable[[str, str, int], None],
    cancel: CancelToken,
) -> None:
    stage_steps = {"check": 0, "export": 1, "compress": 2}
    job_error: dict[str, Any] = {}
    done = False
    with _Job(plan, work, python) as job:
        for event in job.events(cancel):
            if event.get("event") == "stage":
                stage = str(event.get("stage", ""))
                report(stage, str(event.get("message", stage)), stage_steps.get(stage, 1))
            elif event.get("event") == "error":
                job_error = event
            elif event.get("event") == "done":
                done = True
    code = job.process.returncode  # set once the job has been waited for, leaving ``with``
    if job_error:
        log.warning("conversion of %s failed:\n%s", plan.source, job.log_tail())
        raise UserError(str(job_error.get("message", "The conversion failed.")), field="source")
    if not done or code != 0:
        log.error("conversion of %s exited with %s:\n%s", plan.source, code, job.log_tail())
        if code is not None and code < 0:
            stopped = tr(
                "The conversion was killed (exit code {code}: out of memory?); details are in "
                "the log."
            )
        else:
            stopped = tr("The conversion stopped with exit code {code}; details are in the log.")
        raise UserError(stopped.format(code=code), field="source")


class _Job:
    """The converter process (in ``python``, the tools' interpreter): its events as dicts, its
    stderr in a log file, killable."""

    def __init__(self, plan: ConversionPlan, work: Path, python: Path) -> None:
        self.log_path = work / "job.log"
        scratch = work / "tmp"  # optimum's temp export lands here, removed with ``work``
        scratch.mkdir()
        env = job_environment(
            TOKENIZERS_PARALLELISM="false", TMPDIR=str(scratch), TEMP=str(scratch), TMP=str(scratch)
        )
        if plan.offline:
            env["HF_HUB_OFFLINE"] = "1"  # nothing to download, so nothing may wait on a network
        command = [
            str(python),
            "-m",
            "app.models.convert_job",
            plan.source,
            str(work / "model"),
            "--task",
            plan.job_task,
            "--export",
            json.dumps(list(plan.export_args)),
        ]
        log.info("converting: %s", " ".join(command))
        self._log = self.log_path.open("wb")
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                env=env,
                **own_group(),
            )
        except OSError:
            self._log.close()
            raise
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="convert-job-events")
        self._reader.start()

    def __enter__(self) -> _Job:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        # After the job closed its output it is exiting: wait for its own exit code. Kill it
        # only when leaving early (an error or Cancel here).
        if kind is not None and self.process.poll() is None:
            kill_tree(self.process.pid)
        self.process.wait()
        self._reader.join()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self._log.close()

    def events(self, cancel: CancelToken) -> Iterator[dict[str, Any]]:
        """The job's events until it exits; kills it and raises Cancelled on ``cancel``."""
        while True:
            if cancel.cancelled:
                kill_tree(self.process.pid)
                raise Cancelled("conversion cancelled")
            try:
                line = self._lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                return
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict):
                    yield event

    def log_tail(self, lines: int = 40) -> str:
        """The end of the job's stderr, for the app log."""
        if not self._log.closed:
            self._log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def _read(self) -> None:
        stdout: IO[bytes] | None = self.process.stdout
        if stdout is not None:
            for line in stdout:
                self._lines.put(line)
        self._lines.put(None)


def _validate(output: Path, plan: ConversionPlan) -> None:
    """Refuse an output that lacks what its task needs (above all, a skipped tokenizer)."""
    if not output.is_dir():
        raise UserError(tr("The conversion produced no model."), field="source")
    missing = missing_files(output, plan.task)
    if any("tokenizer" in name for name in missing):
        raise UserError(
            tr(
                "The model converted but its tokenizer did not (no openvino_tokenizer.xml): "
                "check the checkpoint's tokenizer files and that openvino-tokenizers matches "
                "openvino."
            ),
            field="source",
        )
    if missing:
        raise UserError(
            tr("The conversion output is incomplete: {missing} missing.").format(
                missing=", ".join(missing)
            ),
            field="source",
        )
    detected = detect_task(output)
    if detected not in (plan.task, ModelTask.UNKNOWN):
        raise UserError(
            tr("The converted model is {kind}, not {wanted}.").format(
                kind=TASK_NAMES[detected], wanted=TASK_NAMES[plan.task]
            ),
            field="task",
        )


def _licence(folder: Path) -> str:
    """The ``license:`` of the checkpoint's model card front matter ("" when none)."""
    try:
        card = (folder / "README.md").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    match = re.search(r"^license:\s*(\S+)", card[:4000], re.MULTILINE)
    return match.group(1) if match else ""
