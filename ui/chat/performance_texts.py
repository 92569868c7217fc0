"""What each engine option buys, in one line, with the numbers measured on this machine.

The numbers live in :data:`MEASURED` only, so the engine benchmark
(``benchmarks/bench_engine_features.py``) can update them in one place; the sentences take
them through ``format`` so translators see one sentence per option.
"""

from __future__ import annotations

from ui.i18n import tr

MEASURED: dict[str, dict[str, float]] = {
    # Real SmolLM2-135M Q4_1 GGUF on CPU, 10-turn chat: first token of turn 10.
    "prefix_caching": {"with_ms": 46, "without_ms": 305},
}
"""Measured effects per option (an option without numbers yet is explained without them)."""


def explanation(option: str) -> str:
    """The one-line explanation shown under ``option``'s control (an EngineOptions field)."""
    if option == "kv_cache_precision":
        return tr(
            "Lower precision holds longer conversations in less memory; "
            "Default is u8 on this CPU, f16 is uncompressed."
        )
    if option == "prefix_caching":
        numbers = MEASURED["prefix_caching"]
        return tr(
            "Reuses earlier turns: first token of turn 10 in {with_ms:.0f} ms "
            "instead of {without_ms:.0f} ms."
        ).format(**numbers)
    if option == "cache_eviction":
        return tr(
            "Keeps long conversations in bounded memory by forgetting the least-used middle tokens."
        )
    if option == "prompt_lookup":
        return tr("Faster answers that quote the prompt or sources; same text when greedy.")
    if option == "draft_model":
        return tr(
            "A smaller model of the same family proposes tokens; "
            "faster answers, more memory (speculative decoding)."
        )
    if option == "sparse_attention":
        return tr("Reads long prompts faster by skipping the least useful attention blocks.")
    if option == "weight_sparsity":
        return tr("Decompresses sparse weights on the fly; pays only on CPUs with AMX.")
    raise KeyError(option)


def no_amx_reason() -> str:
    """Why weight sparsity is disabled on a CPU without AMX."""
    return tr("This CPU has no AMX units, so sparse weights would only slow answers down.")
