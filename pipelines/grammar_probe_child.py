"""The grammar probe's child process (see :mod:`pipelines.grammar_probe`).

It reads one JSON request on stdin, builds an ``LLMPipeline`` over a synthetic model with the
real model's tokenizer, compiles a trivial grammar (GenAI's per-tokenizer set-up, not counted),
says "ready" with its memory and CPU time, sets its own limits, compiles the requested grammar
by answering one token, and says how that went: one JSON line each on its stdout, which is
otherwise silenced with stderr (OpenVINO's messages must not reach the app's command line).
It ends itself when its stdin closes: the app that started it is done with it, or gone.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import IO, Any, NoReturn

import psutil

from pipelines.grammar_probe import GrammarSpec, ProbeLimits, peak_resident

WARM_GRAMMAR = "root ::= [0-9]"
"""Compiled before the probe proper, so GenAI's per-tokenizer set-up is not counted."""
BACKSTOP_SLACK_BYTES = 1 << 30
"""Address space the child may reserve beyond twice the memory limit before ``RLIMIT_AS``
stops it: the compiler's threads reserve stacks and malloc arenas they never touch."""
ORPHANED_EXIT = 3


def main() -> NoReturn:
    """Run one probe and exit, without the interpreter's teardown: the compile's threads and
    the parent watch may still be running. The exit code matters only when no message said
    how the probe ended."""
    os._exit(_probe())


def _probe() -> int:
    # OpenVINO's telemetry sender, a forked process, would outlive a probe that ended first
    # (stuck, as a fork of a process with threads can be): pipelines/__init__ keeps it off.
    request = json.loads(_request_line())
    say = _messages_out()
    threading.Thread(target=_end_with_parent, name="parent-watch", daemon=True).start()
    spec = GrammarSpec(**request["spec"])
    limits = ProbeLimits(**request["limits"])
    try:
        pipe = _synthetic_pipeline(
            Path(request["tokenizer"]), request["vocab_size"], Path(request["work"])
        )
        _answer_one_token(pipe, GrammarSpec("grammar", WARM_GRAMMAR))
    except Exception as error:  # noqa: BLE001 - any failure here is the probe's, not the grammar's
        say({"kind": "unavailable", "reason": f"{type(error).__name__}: {error}"})
        return 1
    me = psutil.Process()
    peak_kept = _reset_peak()
    before = me.cpu_times()
    ready = {"rss": me.memory_info().rss, "cpu": before.user + before.system, "peak": peak_kept}
    say({"kind": "ready", **ready})
    _backstops(me, limits)
    try:
        _answer_one_token(pipe, spec)
    except MemoryError:
        ending: dict[str, Any] = {"kind": "memory"}
    except RuntimeError as error:
        ending = {"kind": "refused", "reason": str(error)}
    else:
        ending = {"kind": "done"}
    peak = peak_resident("self") if peak_kept else None
    say({**ending, "cpu": _cpu_since(me, before), "peak_rss": peak or 0})
    return 0


def _reset_peak() -> bool:
    """Start the kernel's peak of resident memory afresh (Linux), so it measures the compile
    alone — every spike, not only those the parent happens to look at."""
    try:
        Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
    except OSError:
        return False
    return peak_resident("self") is not None


def _messages_out() -> Any:
    """A writer of JSON lines to the real stdout; fd 1 and 2 then go to nowhere."""
    channel: IO[str] = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # the descriptors: a frozen windowed app has no sys.stdout object
    os.dup2(null, 2)
    os.close(null)

    def say(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    return say


def _request_line() -> bytes:
    """The first line on stdin, read from the descriptor itself: Python's buffered stdin
    would be locked by the thread that waits for its end, and so block the exit."""
    line = b""
    while not line.endswith(b"\n"):  # the parent writes this one line and nothing after it
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        line += chunk
    return line


def _end_with_parent() -> None:
    """Exit once stdin closes: whatever is compiling is no longer wanted."""
    while os.read(0, 4096):
        continue
    os._exit(ORPHANED_EXIT)


def _cpu_since(me: psutil.Process, before: Any) -> float:
    now = me.cpu_times()
    return float(now.user + now.system - before.user - before.system)


def _backstops(me: psutil.Process, limits: ProbeLimits) -> None:
    """Limits the kernel enforces even when the parent is too slow to look."""
    try:
        import resource
    except ImportError:  # Windows: the parent's watch is the limit
        return
    space = me.memory_info().vms + 2 * limits.memory_bytes + BACKSTOP_SLACK_BYTES
    times = me.cpu_times()
    seconds = int(times.user + times.system + 2 * limits.cpu_seconds + 5)
    for kind, value in ((resource.RLIMIT_AS, space), (resource.RLIMIT_CPU, seconds)):
        soft, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        if soft == resource.RLIM_INFINITY or value < soft:
            resource.setrlimit(kind, (value, hard))


def _synthetic_pipeline(tokenizer_source: Path, vocab_size: int | None, work: Path) -> Any:
    """An ``LLMPipeline`` over a model of zeros as wide as the real one, with its tokenizer."""
    import openvino as ov
    import openvino_genai as ov_genai

    tokenizer = ov_genai.Tokenizer(str(tokenizer_source))
    width = vocab_size or len(tokenizer.get_vocab())
    ov.save_model(synthetic_model(width), work / "openvino_model.xml", compress_to_fp16=False)
    # One inference thread: the model does nothing; the compile has threads of its own.
    return ov_genai.LLMPipeline(
        str(work), tokenizer, "CPU", ATTENTION_BACKEND="SDPA", INFERENCE_NUM_THREADS=1
    )


def synthetic_model(vocab_size: int) -> Any:
    """An ``ov.Model`` with an exported LLM's inputs and zero ``logits`` ``[batch, seq, V]``
    (GenAI's stateful pipeline needs no KV-cache state)."""
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops

    inputs = [
        ops.parameter([-1, -1], ov.Type.i64, name="input_ids"),
        ops.parameter([-1, -1], ov.Type.i64, name="attention_mask"),
        ops.parameter([-1, -1], ov.Type.i64, name="position_ids"),
        ops.parameter([-1], ov.Type.i32, name="beam_idx"),
    ]
    for parameter in inputs:
        parameter.output(0).set_names({parameter.get_friendly_name()})
    width = ops.constant(np.array([vocab_size], dtype=np.int64))
    shape = ops.concat([ops.shape_of(inputs[0]), width], 0)
    logits = ops.broadcast(ops.constant(np.float32(0)), shape)
    logits.output(0).set_names({"logits"})
    return ov.Model([ops.result(logits)], inputs, "grammar_probe")


def _answer_one_token(pipe: Any, spec: GrammarSpec) -> None:
    import openvino_genai as ov_genai

    config = ov_genai.GenerationConfig()
    config.max_new_tokens = 1
    config.apply_chat_template = False  # raw text: the compile never reads the prompt
    config.structured_output_config = spec.genai_config()
    pipe.generate("0", config)


if __name__ == "__main__":
    main()
