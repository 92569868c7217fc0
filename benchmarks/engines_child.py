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

    ``model`` is an OpenVINO IR folder or a ``.gguf`` file; for a GGUF, ``converted_dir`` is
    the app's converted-model cache (empty: the first load converts the file and keeps the IR
    there; filled: the load takes the IR from it).
    """
    from pipelines.chat import ChatModelConfig, ChatPipeline

    return ChatPipeline(
        ChatModelConfig(model, "CPU", converted_dir=converted_dir, properties=properties)
    )


class OpenVinoEngine:
    """OV Studio's chat path: ``ChatPipeline.generate`` with the app's greedy settings."""

    def __init__(self, job: dict[str, Any]) -> None:
        converted = job.get("converted_dir")
        self.pipeline = ov_load(
            Path(job["model"]), dict(job["properties"]), Path(converted) if converted else None
        )

    def load(self) -> float:
        seconds = self.pipeline.load() / 1000.0
        self.from_cache: bool | None = self.pipeline.from_cache if self.pipeline.gguf else None
        return seconds

    def answer(self, messages: Messages, new_tokens: int, ignore_eos: bool) -> Answer:
        from pipelines.core import CancelToken
        from pipelines.generation import GenerationSettings, Message

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

    def inference_split(self, messages: Messages, new_tokens: int) -> dict[str, float]:
        """Where a decoded token's time goes: the model's inference against GenAI's own
        per-token time (scheduler, sampling, detokenization around it). Same greedy answer as
        :meth:`answer`, through the loaded ``LLMPipeline`` itself (GenAI's raw metrics are not
        part of the app's metric record)."""
        import statistics

        import openvino_genai as ov_genai

        config = ov_genai.GenerationConfig()
        config.max_new_tokens = new_tokens
        config.ignore_eos = True
        config.do_sample = False
        history = ov_genai.ChatHistory()
        for message in messages:
            history.append(message)
        metrics = self.pipeline._loaded_model().generate(history, config).perf_metrics
        infer_us = list(metrics.raw_metrics.token_infer_durations)[1:]
        return {
            "infer_ms_per_token": statistics.median(infer_us) / 1000.0,
            "tpot_ms": float(metrics.get_tpot().mean),
            "sampling_ms": float(metrics.get_sampling_duration().mean),
            "detokenization_ms": float(metrics.get_detokenization_duration().mean),
        }


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


def file_backed_mb() -> float | None:
    """The part of the resident set that maps files (libraries, mmapped weights); the rest is
    the engine's own allocations. Linux only (None elsewhere)."""
    import psutil

    shared = getattr(psutil.Process().memory_info(), "shared", None)
    return None if shared is None else float(shared) / 2**20


def measure(job: dict[str, Any]) -> dict[str, Any]:
    """Run ``job`` (see the module docstring) and return its figures."""
    started = time.perf_counter()
    if job["engine"] == "llama.cpp":
        import llama_cpp  # noqa: F401  (import time is reported apart from the load)

        engine: Engine = LlamaEngine(job)
    else:
        import openvino_genai  # noqa: F401

        engine = OpenVinoEngine(job)
    result: dict[str, Any] = {
        "import_s": time.perf_counter() - started,
        "rss_after_import_mb": rss_mb(),
    }
    result["load_s"] = engine.load()
    if isinstance(engine, OpenVinoEngine):
        result["from_cache"] = engine.from_cache
    result["rss_after_load_mb"] = rss_mb()
    result["file_backed_after_load_mb"] = file_backed_mb()
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
        result["rss_after_decode_mb"] = rss_mb()
        result["file_backed_after_decode_mb"] = file_backed_mb()
        if isinstance(engine, OpenVinoEngine):
            result["decode_split"] = engine.inference_split(job["decode"], int(job["new_tokens"]))
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
