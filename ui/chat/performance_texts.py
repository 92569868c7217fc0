"""What each engine option buys, in one line, with the numbers measured on this machine.

The numbers live in :data:`MEASURED` only, so the engine benchmark
(``benchmarks/bench_engine_features.py``) can update them in one place; the sentences take
them through ``format`` so translators see one sentence per option.
"""

from __future__ import annotations

from collections.abc import Callable

from ui.i18n import tr
from ui.numbers import milliseconds, percent, ratio

MEASURED: dict[str, dict[str, float]] = {
    # benchmarks/results/engine_features.json, quiet run on this machine (2 cores), real
    # SmolLM2-135M-Instruct Q4_1 GGUF on CPU.
    # First token of turn 10 of a 10-turn chat (1,752 prompt tokens).
    "prefix_caching": {"with_ms": 178, "without_ms": 1309},
    # KV-cache bytes of a 3,985-token prompt, as a share of f16's.
    "kv_cache_precision": {"u8": 0.59, "u4": 0.69},
    # Decode speed with / without: grounded answers (sources in the prompt) and plain questions.
    "prompt_lookup": {"grounded": 1.65, "plain": 0.97},
    # Decode speed with the model as its own draft (no smaller model of its family here).
    "draft_model": {"self_draft": 0.68},
    # First token of a 7,937-token prompt, with / without.
    "sparse_attention": {"ratio": 0.99},
}
"""Measured effects per option (an option without numbers yet is explained without them)."""


def explanation(option: str) -> str:
    """The one-line explanation shown under ``option``'s control (an EngineOptions field)."""
    if option == "kv_cache_precision":
        return tr(
            "Lower precision holds long conversations in less memory: here u8 took "
            "{u8} of f16's cache and u4 {u4}; answers can change."
        ).format(**_written(MEASURED["kv_cache_precision"], percent))
    if option == "prefix_caching":
        return tr(
            "Reuses earlier turns: first token of turn 10 in {with_ms} instead of {without_ms}."
        ).format(**_written(MEASURED["prefix_caching"], milliseconds))
    if option == "cache_eviction":
        return tr(
            "Caps each conversation's cache by forgetting the least-used middle tokens; "
            "no saving measured here, where chats already stay within the context."
        )
    if option == "prompt_lookup":
        return tr(
            "Proposes tokens found in the prompt: answers from sources {grounded} as "
            "fast here, plain questions {plain}; the text can differ."
        ).format(**_written(MEASURED["prompt_lookup"], ratio))
    if option == "draft_model":
        return tr(
            "A smaller model of the same family proposes tokens (speculative decoding); it "
            "pays only with a much smaller draft ({self_draft} with the model as its own)."
        ).format(**_written(MEASURED["draft_model"], ratio))
    if option == "sparse_attention":
        return tr(
            "Skips the least useful attention blocks while reading long prompts; "
            "first token {ratio} as long here on an 8k-token prompt."
        ).format(**_written(MEASURED["sparse_attention"], ratio))
    if option == "weight_sparsity":
        return tr(
            "Decompresses sparse weights on the fly on CPUs with AMX; pays only for models "
            "pruned to sparse weights."
        )
    if option == "parallelism":
        return tr(
            "Splits the model across this computer's CPU sockets or GPUs, each computing its "
            "part: for models too large or slow for one."
        )
    raise KeyError(option)


def _written(measured: dict[str, float], write: Callable[[float], str]) -> dict[str, str]:
    """``measured``'s numbers as the user's language writes them."""
    return {name: write(value) for name, value in measured.items()}


def no_amx_reason() -> str:
    """Why weight sparsity is disabled on a CPU without AMX."""
    return tr("This CPU has no AMX units, so sparse weights would only slow answers down.")
