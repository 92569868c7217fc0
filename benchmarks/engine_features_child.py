"""The measurements of ``bench_engine_features.py``, one per child process.

Each function runs in a fresh process (``bench_engine_features.py --child ROW``), so a memory
figure never carries what an earlier row left behind, and returns plain JSON-able numbers. The
model is the real SmolLM2-135M GGUF opened as the app opens it (``ChatPipeline`` with its
``converted_dir`` and the app's chat compile properties); answers are greedy with no repetition
penalty, so two runs that differ only by an engine setting must give the same text unless the
setting changes the numbers.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psutil

from app.core.devices import tuning_properties
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken
from pipelines.engine_options import EngineOptions
from pipelines.generation import GenerationSettings, Message

ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("bench_engine_features")

PLAIN_QUESTIONS = [
    "What is the capital of France?",
    "Why is the sky blue?",
    "Give me one tip for sleeping well.",
    "What does a bee make?",
    "How many days are in a leap year?",
    "Name a planet with rings.",
    "What is water made of?",
    "Why do we have seasons?",
    "What is the largest ocean?",
    "Who wrote Romeo and Juliet?",
    "What is photosynthesis?",
    "How do vaccines work?",
]
TURN_TEXT = (
    "Here is part {turn} of my travel notes. We walked along the river past the old mill, "
    "ate bread from the market in the square and took the evening train to town {turn}. "
)


def greedy(max_new_tokens: int, *, ignore_eos: bool = False) -> GenerationSettings:
    """Deterministic answers: greedy, no repetition penalty (prompt lookup keeps them equal)."""
    return GenerationSettings(
        max_new_tokens=max_new_tokens,
        temperature=0.0,
        repetition_penalty=1.0,
        ignore_eos=ignore_eos,
    )


def open_model(model: Path, converted: Path, options: EngineOptions) -> ChatPipeline:
    """``model`` (a GGUF file or an IR folder) loaded as the app loads it, with ``options``."""
    config = ChatModelConfig(
        model,
        "CPU",
        converted_dir=converted,
        properties=tuning_properties("chat", "CPU"),
        engine=options,
    )
    pipe = ChatPipeline(config)
    pipe.load()
    return pipe


def timed_answer(
    pipe: ChatPipeline, messages: Sequence[Message], settings: GenerationSettings
) -> dict[str, Any]:
    """One answer with its decode rate measured from the first streamed text to the end
    (independent of how an assisted decoding reports its own metrics)."""
    first: list[float] = []
    started = time.perf_counter()
    result = pipe.generate(
        messages, settings, CancelToken(), lambda _t: first or first.append(time.perf_counter())
    )
    ended = time.perf_counter()
    tokens = int(result.metrics.values["output_tokens"])
    decode_s = ended - (first[0] if first else started)
    return {
        "text": result.text,
        "ttft_ms": result.metrics.values["ttft_ms"],
        "input_tokens": int(result.metrics.values["input_tokens"]),
        "output_tokens": tokens,
        "decode_s": decode_s,
        "wall_s": ended - started,
    }


def rate(answers: Sequence[dict[str, Any]]) -> float:
    """Decode tokens/s over ``answers`` (tokens after the first / time after the first text)."""
    tokens = sum(max(a["output_tokens"] - 1, 0) for a in answers)
    seconds = sum(a["decode_s"] for a in answers)
    return tokens / seconds if seconds > 0 else 0.0


def grounded_prompts(count_tokens: Callable[[str], int], n: int) -> list[str]:
    """Questions grounded as the app grounds them (``grounded_question``): the retrieval test
    corpus's passage that answers each question ranked first, four others after it, and a
    request to quote the source."""
    from app.knowledge.grounding import GroundingRules, grounded_question
    from pipelines.rag.hybrid_search import Hit

    facts = _retrieval_facts()
    prompts = []
    for index in range(min(n, len(facts))):
        chosen = [facts[(index + offset) % len(facts)] for offset in range(5)]
        hits = [
            Hit(rank, f"{name}.txt", None, 1.0 - rank / 10, passage, passage[:80], rank, None)
            for rank, (name, passage, _question) in enumerate(chosen)
        ]
        question = f"{facts[index][2]} Quote the source that answers it, then explain it."
        every_passage = GroundingRules(relevance_floor=0.0, chunk_tokens=4096)
        grounding = grounded_question(question, hits, count_tokens, 4096, every_passage)
        prompts.append(grounding.question)
    return prompts


def _retrieval_facts() -> list[tuple[str, str, str]]:
    """The (file, passage, paraphrased question) corpus of the retrieval-quality test."""
    path = ROOT / "tests" / "integration" / "knowledge" / "test_search.py"
    spec = importlib.util.spec_from_file_location("retrieval_quality_corpus", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.FACTS)


def filler(pipe: ChatPipeline, tokens: int, turn: int = 0) -> str:
    """Ordinary text of about ``tokens`` tokens (counted with the model's tokenizer)."""
    unit = TURN_TEXT.format(turn=turn)
    per_unit = pipe.count_tokens(unit)
    return unit * max(1, tokens // per_unit)


def rss_mb() -> float:
    """This process's resident memory."""
    return float(psutil.Process().memory_info().rss / 2**20)


# ----- rows ---------------------------------------------------------------------------------


def prefix_caching(model: Path, converted: Path, quick: bool) -> dict[str, Any]:
    """TTFT of each turn of a 10-turn conversation, prefix caching on and off."""
    turns = 4 if quick else 10
    runs: dict[str, Any] = {}
    for label, enabled in (("off", False), ("on", True)):
        pipe = open_model(model, converted, EngineOptions(prefix_caching=enabled))
        pipe.generate([Message("user", "Hello.")], greedy(4), CancelToken(), lambda _t: None)
        messages: list[Message] = [Message("system", "You are a helpful travel assistant.")]
        series = []
        for turn in range(1, turns + 1):
            messages.append(Message("user", filler(pipe, 150, turn) + "What should I see next?"))
            answer = timed_answer(pipe, messages, greedy(48, ignore_eos=True))
            messages.append(Message("assistant", answer["text"]))
            series.append({k: answer[k] for k in ("ttft_ms", "input_tokens")})
        runs[label] = {"turns": series, "last_turn_ttft_ms": series[-1]["ttft_ms"]}
        del pipe
    return runs


def prompt_lookup(model: Path, converted: Path, quick: bool) -> dict[str, Any]:
    """Decode rate and answers of grounded and plain questions, prompt lookup off and on."""
    runs: dict[str, Any] = {}
    for label, enabled in (("off", False), ("on", True)):
        pipe = open_model(model, converted, EngineOptions(prompt_lookup=enabled))
        pipe.generate([Message("user", "Hello.")], greedy(4), CancelToken(), lambda _t: None)
        grounded = grounded_prompts(pipe.count_tokens, 4 if quick else 20)
        plain = PLAIN_QUESTIONS[: 4 if quick else len(PLAIN_QUESTIONS)]
        runs[label] = {
            kind: [timed_answer(pipe, [Message("user", q)], greedy(96)) for q in questions]
            for kind, questions in (("grounded", grounded), ("plain", plain))
        }
        del pipe
    return runs


def kv_precision(model: Path, converted: Path, precision: str, context: int) -> dict[str, Any]:
    """KV-cache bytes a ``context``-token prompt takes at ``precision``, two ways, and the
    greedy answers to the question set.

    * ``cache``: GenAI's own count — a ``ContinuousBatchingPipeline`` on the converted IR with
      a fixed 1 GB cache; after reading the prompt, the share of its blocks in use × its size;
    * ``rss``: the product path (``ChatPipeline``) in this fresh process: resident memory after
      a 4-token answer to a 10-token question and after the ``context``-token prompt (includes
      the prompt's activations, which do not depend on the precision).
    """
    import openvino_genai as ov_genai

    pipe = open_model(model, converted, EngineOptions(kv_cache_precision=precision))  # type: ignore[arg-type]
    pipe.generate([Message("user", "Hello.")], greedy(4), CancelToken(), lambda _t: None)
    before = rss_mb()
    prompt = filler(pipe, context - 40) + "Summarise."
    long_answer = timed_answer(pipe, [Message("user", prompt)], greedy(1))
    after = rss_mb()
    answers = [
        timed_answer(pipe, [Message("user", q)], greedy(32))["text"]
        for q in [*PLAIN_QUESTIONS, *(f[2] for f in _retrieval_facts())]
    ]
    ir = _converted_ir(converted)
    del pipe
    scheduler = ov_genai.SchedulerConfig()
    scheduler.cache_size = 1
    scheduler.enable_prefix_caching = False
    scheduler.max_num_batched_tokens = 2**31 - 1
    batching = ov_genai.ContinuousBatchingPipeline(
        str(ir), scheduler, "CPU", {"KV_CACHE_PRECISION": precision}
    )
    config = ov_genai.GenerationConfig()
    config.max_new_tokens = 1
    batching.generate([prompt], [config])
    metrics = batching.get_metrics()
    used = metrics.max_cache_usage / 100.0 * metrics.cache_size_in_bytes
    return {
        "prompt_tokens": long_answer["input_tokens"],
        "cache_bytes": int(used),
        "cache_bytes_per_token": round(used / long_answer["input_tokens"], 1),
        "rss_mb": {"short": round(before, 1), "long": round(after, 1)},
        "rss_delta_mb": round(after - before, 1),
        "answers": answers,
    }


def _converted_ir(converted: Path) -> Path:
    """The IR folder the GGUF was converted to (the converted cache holds one model here)."""
    return next(converted.rglob("openvino_model.xml")).parent


def eviction(model: Path, converted: Path, enabled: bool, goal_tokens: int) -> dict[str, Any]:
    """RSS over a conversation through the app's chat service until ``goal_tokens`` tokens
    were said in it: each turn ~2,000 tokens of notes, a 16-token answer; the service drops
    the oldest turns once the prompt would pass the model's 8,192-token context."""
    from app.chat.service import ChatService
    from app.chat.storage import ConversationStore
    from app.core.devices import DeviceInfo
    from app.core.performance.metrics import MetricsBus

    options = EngineOptions(prefix_caching=False, cache_eviction=enabled)
    series: list[dict[str, float]] = []

    with tempfile.TemporaryDirectory() as home:
        service = ChatService(
            ConversationStore(Path(home) / "conversations"),
            MetricsBus(),
            [DeviceInfo("CPU", "CPU")],
            pipeline_factory=lambda c: ChatPipeline(dataclasses.replace(c, engine=options)),
            converted_cache=converted,
        )
        service.load_model(model, "CPU")
        conversation = service.new_conversation("You are a helpful travel assistant.")
        notes = TURN_TEXT * 50  # ~2,000 tokens
        said, turn, per_turn = 0, 0, 0
        while said < goal_tokens:
            turn += 1
            answer = service.ask(
                conversation.id,
                f"{notes}\nThat was day {turn}. Where next?",
                greedy(16, ignore_eos=True),
                CancelToken(),
                lambda _t: None,
            )
            metrics = answer.message.metrics
            # Every turn says the same number of tokens: the first prompt's plus the answer.
            per_turn = per_turn or int(metrics["input_tokens"]) + 16
            said += per_turn
            series.append(
                {
                    "turn": turn,
                    "conversation_tokens": said,
                    "prompt_tokens": int(metrics["input_tokens"]),
                    "ttft_ms": round(metrics["ttft_ms"], 1),
                    "rss_mb": round(rss_mb(), 1),
                }
            )
            log.info("  eviction %s turn %d: %s", enabled, turn, series[-1])
    return {"series": series}


def speculative(model: Path, converted: Path, quick: bool) -> dict[str, Any]:
    """Decode rate with and without a draft model: the converted IR of the same GGUF (no
    smaller model with SmolLM2's tokenizer is among the fixtures)."""
    questions = PLAIN_QUESTIONS[: 4 if quick else 8]
    runs: dict[str, Any] = {}
    for label, draft in (("off", None), ("on", _converted_ir(converted))):
        pipe = open_model(model, converted, EngineOptions(draft_model=draft))
        pipe.generate([Message("user", "Hello.")], greedy(4), CancelToken(), lambda _t: None)
        runs[label] = [timed_answer(pipe, [Message("user", q)], greedy(64)) for q in questions]
        del pipe
    return runs


def sparse_attention(model: Path, converted: Path, quick: bool, context: int) -> dict[str, Any]:
    """TTFT of the longest prompt the model takes (its context less a 16-token answer),
    sparse attention off and on; prefix caching off in both so every prompt is read whole."""
    tokens = (context // 4 if quick else context) - 16 - 60
    runs: dict[str, Any] = {}
    for label, enabled in (("off", False), ("on", True)):
        pipe = open_model(
            model, converted, EngineOptions(prefix_caching=False, sparse_attention=enabled)
        )
        pipe.generate([Message("user", "Hello.")], greedy(4), CancelToken(), lambda _t: None)
        runs[label] = [
            timed_answer(
                pipe, [Message("user", filler(pipe, tokens, n) + "Summarise.")], greedy(16)
            )
            for n in range(2)
        ]
        del pipe
    return runs


def weight_sparsity(model: Path, converted: Path, quick: bool) -> dict[str, Any]:
    """Decode rate with ``CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE`` off and on."""
    questions = PLAIN_QUESTIONS[: 2 if quick else 5]
    runs: dict[str, Any] = {}
    for label, enabled in (("off", False), ("on", True)):
        pipe = open_model(model, converted, EngineOptions(weight_sparsity=enabled))
        pipe.generate([Message("user", "Hello.")], greedy(4), CancelToken(), lambda _t: None)
        runs[label] = [
            timed_answer(pipe, [Message("user", q)], greedy(64, ignore_eos=True)) for q in questions
        ]
        del pipe
    return runs
