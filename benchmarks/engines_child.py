"""One engine, one measurement, one process: ``benchmarks/bench_engines.py`` runs this file.

Each measurement runs in a fresh process so that the peak RSS it reports belongs to one engine
alone, and no state (prompt caches, compiled shapes, allocator pools) carries over from the other
engine or from an earlier measurement. The job comes as JSON in ``argv[1]`` (see
:class:`benchmarks.engines_jobs.Job`); the result is one JSON line on stdout.

Order of work: load (timed) → one short warm-up answer → the decode run (``new_tokens`` greedy
tokens, end-of-sequence ignored) → the time-to-first-token prompts, in the order given, each
answered with one token → the quality question (greedy, stops at end-of-sequence).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

Messages = list[dict[str, str]]


@dataclass
class Answer:
    """One timed answer. Times are seconds from the call; ``first_s`` is the first token."""

    text: str
    input_tokens: int
    output_tokens: int
    first_s: float
    total_s: float
    engine_ttft_s: float | None = None
    """The engine's own time to first token, where it reports one (OpenVINO GenAI does)."""
    engine_tpot_s: float | None = None

    def wall_decode_tokens_per_s(self) -> float:
        """Tokens after the first, over the wall time after the first arrived."""
        after_first = self.total_s - self.first_s
        return (self.output_tokens - 1) / after_first if after_first > 0 else 0.0

    def decode_tokens_per_s(self) -> float:
        """The decode rate: one over the mean time per token after the first.

        OpenVINO's text streamer holds a token back until its text is complete, so its first
        chunk comes a few tokens late and the wall rate after it reads high (~4% here); its
        own per-token time (the TPOT the app shows) is used instead. llama.cpp hands out every
        token as it is sampled, so its wall rate is the same figure.
        """
        if self.engine_tpot_s:
            return 1.0 / self.engine_tpot_s
        return self.wall_decode_tokens_per_s()


class Engine(Protocol):
    def load(self) -> float:
        """Load the model; seconds it took."""
        ...

    def answer(self, messages: Messages, new_tokens: int, ignore_eos: bool) -> Answer: ...


def ov_load(model: Path, properties: dict[str, Any], converted_dir: Path | None = None) -> Any:
    """The app's chat pipeline (``pipelines.chat.ChatPipeline``) on ``model``, not yet loaded.

    ``model`` is an OpenVINO IR folder or a ``.gguf`` file; for a GGUF, ``converted_dir`` is the
    folder holding the IR converted from it (empty: the first load converts and fills it).
    Until ``pipelines/chat.py`` opens a .gguf itself, a GGUF is copied into ``converted_dir``
    and read by ``LLMPipeline`` with ``enable_save_ov_model`` (the IR is written next to it),
    and a filled ``converted_dir`` is loaded as an IR folder: the same two loads the app will
    do. This is the one function to change when the app path lands.
    """
    import shutil

    from pipelines.chat import ChatModelConfig, ChatPipeline

    if model.is_dir() or converted_dir is None:
        return ChatPipeline(ChatModelConfig(model, "CPU", properties=properties))
    if (converted_dir / "openvino_model.xml").is_file():
        return ChatPipeline(ChatModelConfig(converted_dir, "CPU", properties=properties))
    converted_dir.mkdir(parents=True, exist_ok=True)
    copy = converted_dir / model.name
    shutil.copyfile(model, copy)  # untimed: only load() is timed

    class GgufChatPipeline(ChatPipeline):
        def _load(self) -> Any:
            import openvino_genai as ov_genai

            return ov_genai.LLMPipeline(
                str(copy), "CPU", enable_save_ov_model=True, **self.config.properties
            )

    return GgufChatPipeline(ChatModelConfig(converted_dir, "CPU", properties=properties))


class OpenVinoEngine:
    """OV Studio's chat path: ``ChatPipeline.generate`` with the app's greedy settings."""

    def __init__(self, job: dict[str, Any]) -> None:
        converted = job.get("converted_dir")
        self.pipeline = ov_load(
            Path(job["model"]), dict(job["properties"]), Path(converted) if converted else None
        )

    def load(self) -> float:
        return self.pipeline.load() / 1000.0

    def answer(self, messages: Messages, new_tokens: int, ignore_eos: bool) -> Answer:
        from pipelines.chat import GenerationSettings, Message
        from pipelines.core import CancelToken

        settings = GenerationSettings(
            max_new_tokens=new_tokens,
            temperature=0.0,
            repetition_penalty=1.0,
            ignore_eos=ignore_eos,
        )
        chunks: list[float] = []
        started = time.perf_counter()
        result = self.pipeline.generate(
            [Message(m["role"], m["content"]) for m in messages],
            settings,
            CancelToken(),
            lambda _: chunks.append(time.perf_counter()),
        )
        total = time.perf_counter() - started
        values = result.metrics.values
        # The text streamer holds back a token whose text is not complete yet; one-token answers
        # arrive when generate returns, so the first token is at most the end of the call.
        first = min(chunks[0] - started, total) if chunks else total
        return Answer(
            text=result.text,
            input_tokens=int(values["input_tokens"]),
            output_tokens=int(values["output_tokens"]),
            first_s=first,
            total_s=total,
            engine_ttft_s=values["ttft_ms"] / 1000.0,
            engine_tpot_s=values["tpot_ms"] / 1000.0,
        )


class LlamaEngine:
    """llama-cpp-python as its users drive it: the GGUF's chat template, greedy sampling.

    ``Llama.generate`` yields tokens without end-of-sequence checks (``create_completion`` adds
    those), so exactly ``new_tokens`` tokens are taken from it to ignore EOS. ``reset()`` before
    every answer empties the context, so no prompt prefix is reused between runs.
    """

    def __init__(self, job: dict[str, Any]) -> None:
        self.job = job
        self.llm: Any = None
        self.formatter: Any = None

    def load(self) -> float:
        from llama_cpp import Llama

        from benchmarks.engines_prompts import chat_formatter

        threads = int(self.job["threads"])
        started = time.perf_counter()
        self.llm = Llama(
            self.job["model"],
            n_ctx=int(self.job["n_ctx"]),
            n_threads=threads,
            n_threads_batch=threads,
            logits_all=False,
            verbose=False,
        )
        seconds = time.perf_counter() - started
        self.formatter = chat_formatter(self.llm)
        return seconds

    def answer(self, messages: Messages, new_tokens: int, ignore_eos: bool) -> Answer:
        llm = self.llm
        eos = llm.token_eos()
        started = time.perf_counter()
        prompt = self.formatter(messages=messages).prompt
        tokens = llm.tokenize(prompt.encode(), add_bos=True, special=True)
        llm.reset()
        pieces: list[bytes] = []
        first = 0.0
        for token in llm.generate(tokens, temp=0.0, repeat_penalty=1.0):
            if not ignore_eos and token == eos:
                break
            pieces.append(llm.detokenize([token]))
            if len(pieces) == 1:
                first = time.perf_counter() - started
            if len(pieces) >= new_tokens:
                break
        total = time.perf_counter() - started
        return Answer(
            text=b"".join(pieces).decode("utf-8", errors="replace"),
            input_tokens=len(tokens),
            output_tokens=len(pieces),
            first_s=first or total,
            total_s=total,
        )


def peak_rss_mb() -> float:
    """Peak resident set of this process so far, in MiB."""
    try:
        import resource
    except ImportError:  # Windows: the working-set peak is the same figure
        import psutil

        return float(psutil.Process().memory_info().peak_wset) / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def rss_mb() -> float:
    import psutil

    return float(psutil.Process().memory_info().rss) / 2**20


def measure(job: dict[str, Any]) -> dict[str, Any]:
    """Run ``job`` (see the module docstring) and return its figures."""
    started = time.perf_counter()
    if job["engine"] == "llama.cpp":
        import llama_cpp  # noqa: F401  (import time is reported apart from the load)

        engine: Engine = LlamaEngine(job)
    else:
        import openvino_genai  # noqa: F401

        engine = OpenVinoEngine(job)
    result: dict[str, Any] = {"import_s": time.perf_counter() - started}
    result["load_s"] = engine.load()
    result["rss_after_load_mb"] = rss_mb()
    result["peak_rss_after_load_mb"] = peak_rss_mb()
    engine.answer(job["warmup"], 8, ignore_eos=True)
    if job.get("decode"):
        run = engine.answer(job["decode"], int(job["new_tokens"]), ignore_eos=True)
        result["decode"] = {
            **asdict(run),
            "text": run.text[:120],
            "tokens_per_s": run.decode_tokens_per_s(),
            "wall_tokens_per_s": run.wall_decode_tokens_per_s(),
            "end_to_end_tokens_per_s": run.output_tokens / run.total_s,
        }
        result["peak_rss_after_decode_mb"] = peak_rss_mb()
    result["ttft"] = []
    for prompt in job.get("ttft", []):
        run = engine.answer(prompt["messages"], 1, ignore_eos=True)
        result["ttft"].append(
            {
                "label": prompt["label"],
                "seconds": run.first_s,
                "engine_seconds": run.engine_ttft_s,
                "input_tokens": run.input_tokens,
            }
        )
    if job.get("question"):
        run = engine.answer([{"role": "user", "content": job["question"]}], 48, ignore_eos=False)
        result["answer"] = run.text
    result["peak_rss_mb"] = peak_rss_mb()
    return result


def main() -> int:
    job = json.loads(sys.argv[1])
    result = measure(job)
    sys.stdout.write("\n" + json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
