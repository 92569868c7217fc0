"""The grammar probe: a grammar's first compile, in a child process that may run away.

OpenVINO GenAI compiles a structured-output grammar (xgrammar, linked inside GenAI) only when
``generate()`` starts, in the calling process, and has no API to compile one on its own. A
grammar that runs away there (minutes of CPU, gigabytes of memory: the kernel's OOM killer
then takes the app, and other programs with it) cannot be stopped from inside: C++ compiles
through any watchdog. What the compile costs depends on the grammar and on the tokenizer's
vocabulary (xgrammar checks every token against every state), not on the model's weights.

So the probe runs ``generate(max_new_tokens=1)`` under the exact structured-output config in a
child process (:mod:`pipelines.grammar_probe_child`) over a *synthetic* model — the inputs of an
exported LLM and ``logits`` of zeros as wide as the real model's — and the real model's
tokenizer and detokenizer. This process watches the child's CPU time and resident memory
(psutil, every :data:`POLL_S`) and kills it past a :class:`ProbeLimits`; on POSIX the child
also limits itself (``RLIMIT_AS``/``RLIMIT_CPU``) once it is ready, and it ends itself when
this process is gone. Measured on SmolLM2-135M's 49k vocabulary, the probe's compile tracks the
real model's (``benchmarks/bench_grammar_probe.py``): the budget's costliest string bounds took
12.3 CPU s and +9 MB in the probe, 11.5 CPU s and +11 MB in the real model; arrays nested 7 deep
as the compact grammar wrote them before it named items, 7.4 CPU s and +111 MB against 10.1 CPU s
and +101 MB, and 8 deep 42.7 CPU s and +434 MB against 53 CPU s and +409 MB (beyond the real
model's own first answer, +155 MB): memory within a tenth, CPU within a quarter (the probe's
lower). A Qwen-sized tokenizer (151k tokens) costs about three times SmolLM2's: the string
bounds above took 35 CPU s and +54 MB. :mod:`pipelines.grammar_guard` keeps the verdicts, so a
grammar is probed once; a new one costs a child start, about a second.

The child is ``python -m pipelines.grammar_probe_child`` from source, and the frozen app's own
executable with :data:`FROZEN_FLAG` (its entry script hands that flag to the child's ``main``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any, Literal

import psutil

from pipelines.core import Cancelled, CancelToken
from pipelines.files import temp_folder
from pipelines.processes import own_group

log = logging.getLogger(__name__)

POLL_S = 0.05
"""How often the child's CPU time and memory (and the cancel token) are read."""
FROZEN_FLAG = "--grammar-probe"
"""The frozen app's executable runs the probe's child when given this first."""
CHILD_MODULE = "pipelines.grammar_probe_child"

Outcome = Literal["fits", "memory", "cpu", "crashed", "refused", "timeout", "unavailable"]


@dataclass(frozen=True)
class GrammarSpec:
    """A structured-output config as GenAI takes it: ``kind`` is the
    ``StructuredOutputConfig`` field that holds ``text`` (an EBNF grammar or a JSON schema)."""

    kind: Literal["grammar", "json_schema"]
    text: str

    def genai_config(self) -> Any:
        """GenAI's ``StructuredOutputConfig`` for this spec."""
        import openvino_genai as ov_genai

        return ov_genai.StructuredOutputConfig(**{self.kind: self.text})


@dataclass(frozen=True)
class ProbeLimits:
    """What the first compile of one grammar may cost before it is refused."""

    memory_bytes: int = 1 << 30
    """Resident memory the compile may add to the probe's own (after its set-up)."""
    cpu_seconds: float = 120.0
    """CPU time of the compile, its threads together (a busy machine hardly changes it)."""
    wall_seconds: float = 660.0
    """From the child's start to its verdict: catches a child stalled without using CPU."""


@dataclass(frozen=True)
class ProbeTarget:
    """What the probe needs of a model: its tokenizer and the width of its logits."""

    tokenizer: Path
    """A folder with ``openvino_tokenizer.xml``/``openvino_detokenizer.xml``, or a ``.gguf``."""
    vocab_size: int | None
    """The model's logits width (None: the tokenizer's vocabulary size)."""
    identity: str
    """Changes whenever what the compile reads changes (tokenizer files, width, GenAI)."""


@dataclass(frozen=True)
class Verdict:
    """How the probe of one grammar ended."""

    outcome: Outcome
    cpu_seconds: float = 0.0
    """CPU time the compile used (up to when it was stopped)."""
    memory_bytes: int = 0
    """Resident memory the compile added at its peak (as often as it was read)."""
    limit: float = 0.0
    """The limit it went over (bytes for ``memory``, seconds for ``cpu`` and ``timeout``)."""
    detail: str = ""
    """GenAI's reason (``refused``), how the child ended (``crashed``), what failed
    (``unavailable``)."""

    @property
    def fits(self) -> bool:
        """Whether the grammar compiled within the limits."""
        return self.outcome == "fits"


def run_probe(
    spec: GrammarSpec,
    target: ProbeTarget,
    limits: ProbeLimits,
    cancel: CancelToken | None = None,
    scratch: Path | None = None,
) -> Verdict:
    """Compile ``spec`` for ``target`` in a child process within ``limits``.

    ``unavailable`` means the probe could not be set up (the child failed before it reached the
    grammar): it says nothing about the grammar. ``scratch`` holds the synthetic model while
    the child runs (None: the system's temp folder).

    Raises:
        Cancelled: ``cancel`` was set (the child is killed).
    """
    work = temp_folder(scratch)
    request = {
        "spec": asdict(spec),
        "tokenizer": str(target.tokenizer),
        "vocab_size": target.vocab_size,
        "limits": asdict(limits),
        "work": str(work),
    }
    try:
        with (work / "stderr.txt").open("wb") as errors:
            child = _start(errors)
            try:
                return _converse(child, json.dumps(request), limits, cancel)
            finally:
                _end(child)
    except OSError as error:
        return Verdict("unavailable", detail=f"the probe could not start: {error}")
    finally:
        last_words = _tail(work / "stderr.txt")
        if last_words:
            log.info("grammar probe's stderr: %s", last_words)
        shutil.rmtree(work, ignore_errors=True)


def child_command() -> list[str]:
    """How to start the child: this interpreter on its module, or the frozen app's
    executable with :data:`FROZEN_FLAG`."""
    if getattr(sys, "frozen", False):
        return [sys.executable, FROZEN_FLAG]
    return [sys.executable, "-m", CHILD_MODULE]


def _start(errors: IO[bytes]) -> subprocess.Popen[bytes]:
    # The folder holding this package first on the child's path: it runs this very code.
    here = str(Path(__file__).resolve().parent.parent)
    path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen(
        child_command(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=errors,
        env={**os.environ, "PYTHONPATH": path},
        **own_group(),  # Ctrl+C reaches the app, which ends the child
    )


def _end(child: subprocess.Popen[bytes]) -> None:
    if child.poll() is None:
        child.kill()
    with contextlib.suppress(OSError):
        if child.stdin is not None:
            child.stdin.close()  # the child's sign that we are done, if it still listens
    child.wait()
    if child.stdout is not None:
        child.stdout.close()


def _converse(
    child: subprocess.Popen[bytes], request: str, limits: ProbeLimits, cancel: CancelToken | None
) -> Verdict:
    """Send the request, then follow the child until its verdict, killing it past a limit."""
    assert child.stdin is not None and child.stdout is not None
    started = time.monotonic()
    child.stdin.write(request.encode("utf-8") + b"\n")
    child.stdin.flush()  # left open: the child ends itself when it closes
    messages: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()
    threading.Thread(
        target=_read_messages, args=(child.stdout, messages), name="grammar-probe", daemon=True
    ).start()
    process = psutil.Process(child.pid)
    ready: dict[str, Any] | None = None
    peak = used = 0.0
    while True:
        if cancel is not None and cancel.cancelled:
            raise Cancelled("grammar probe cancelled")
        try:
            message = messages.get(timeout=POLL_S)
        except queue.Empty:
            message = {"kind": "quiet"}
        if message is None:  # its output closed: it ended
            code = child.wait()
            if ready is None:
                return Verdict("unavailable", detail=f"the probe ended with {code}")
            return _ended(code, used, int(peak), limits)
        if message["kind"] == "ready":
            ready = message
        elif message["kind"] != "quiet":
            if ready is not None and message.get("peak_rss"):
                peak = max(peak, int(message["peak_rss"]) - int(ready["rss"]))
            return _reported(message, used, int(peak), limits)
        if ready is not None:
            try:
                peak_kept = ready.get("peak") and peak_resident(child.pid)
                memory = (peak_kept or process.memory_info().rss) - int(ready["rss"])
                times = process.cpu_times()
            except psutil.Error:
                continue  # it is ending: its closed output says how
            peak = max(peak, memory)
            used = max(used, times.user + times.system - float(ready["cpu"]))
            if peak > limits.memory_bytes:
                return Verdict("memory", used, int(peak), limits.memory_bytes)
            if used > limits.cpu_seconds:
                return Verdict("cpu", used, int(peak), limits.cpu_seconds)
        if time.monotonic() - started > limits.wall_seconds:
            return Verdict("timeout", used, int(peak), limits.wall_seconds)


def _read_messages(stream: IO[bytes], messages: queue.SimpleQueue[dict[str, Any] | None]) -> None:
    """Each JSON line the child writes, then None when its output closes."""
    try:
        for line in stream:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and isinstance(message.get("kind"), str):
                messages.put(message)
    except (OSError, ValueError):
        pass  # closed under us: the end
    messages.put(None)


def _reported(message: dict[str, Any], used: float, peak: int, limits: ProbeLimits) -> Verdict:
    """The verdict of a child that said how its compile ended."""
    kind = message["kind"]
    cpu = max(used, float(message.get("cpu", 0.0)))
    if kind == "memory" or peak > limits.memory_bytes:  # memory: its RLIMIT_AS backstop
        return Verdict("memory", cpu, peak, limits.memory_bytes)
    if cpu > limits.cpu_seconds:  # over it between two looks
        return Verdict("cpu", cpu, peak, limits.cpu_seconds)
    if kind == "done":
        return Verdict("fits", cpu, peak)
    if kind == "refused":
        return Verdict("refused", cpu, peak, detail=str(message.get("reason", "")))
    return Verdict("unavailable", detail=str(message.get("reason", "")))


def _ended(code: int, used: float, peak: int, limits: ProbeLimits) -> Verdict:
    """The verdict of a child that ended without a word while compiling."""
    xcpu = getattr(signal, "SIGXCPU", None)
    if xcpu is not None and code == -xcpu:  # its RLIMIT_CPU backstop
        return Verdict("cpu", used, peak, limits.cpu_seconds)
    return Verdict("crashed", used, peak, detail=f"exit code {code}")


def peak_resident(pid: int | str) -> int | None:
    """A process's peak resident memory in bytes (Linux's ``VmHWM``, which the process can
    reset), or None where the system keeps no such figure."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return None


def _tail(path: Path, limit: int = 2000) -> str:
    try:
        data = path.read_bytes()[-limit:]
    except OSError:
        return ""
    return " ".join(data.decode("utf-8", "replace").split())
