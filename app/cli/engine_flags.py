"""The engine flags of the commands that load a chat model (``chat``, ``ask``): KV cache,
prefix caching, cache eviction, prompt lookup, draft model, sparse attention and weights, and
splitting the model across CPU sockets or GPUs.

A flag left out takes the model's stored performance preset (``settings.chat_for(model)``);
:func:`engine_from` merges the two into :class:`~pipelines.engine_options.EngineOptions`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.chat import (
    KV_CACHE_PRECISIONS,
    MAX_EVICTION_CACHE_TOKENS,
    MIN_EVICTION_CACHE_TOKENS,
    PARALLELISMS,
    EngineOptions,
    describe,
)
from app.cli.exits import CliError

if TYPE_CHECKING:
    from app.core import PerformanceSettings

FLAG_FOR_FIELD = {
    "kv_cache_precision": "--kv-cache",
    "prefix_caching": "--prefix-caching/--no-prefix-caching",
    "cache_eviction": "--cache-eviction",
    "eviction_cache_tokens": "--cache-eviction",
    "prompt_lookup": "--prompt-lookup/--no-prompt-lookup",
    "draft_model": "--draft-model",
    "sparse_attention": "--sparse-attention/--no-sparse-attention",
    "weight_sparsity": "--weight-sparsity/--no-weight-sparsity",
    "parallelism": "--split-model",
}
"""The flag that sets each engine option (an error's ``field`` names the option)."""


def add_engine_options(command: argparse.ArgumentParser) -> None:
    """The engine flags; each defaults to None, meaning "the model's stored preset"."""
    group = command.add_argument_group(
        "engine (default: the model's performance settings)",
        "load-time options of the chat engine; each says what it buys",
    )
    group.add_argument(
        "--kv-cache",
        choices=KV_CACHE_PRECISIONS,
        help="KV-cache precision: u8/u4 kept the cache in 59%%/69%% of f16's memory here "
        "(default: the device's, u8 on CPU)",
    )
    group.add_argument(
        "--prefix-caching",
        action=argparse.BooleanOptionalAction,
        help="reuse earlier turns' cache: turn 10's first token 7x sooner here",
    )
    group.add_argument(
        "--cache-eviction",
        type=_eviction_tokens,
        metavar="TOKENS",
        help=f"bound the cache at TOKENS ({MIN_EVICTION_CACHE_TOKENS}-"
        f"{MAX_EVICTION_CACHE_TOKENS}) by evicting old tokens; 0 = off "
        "(needs --no-prefix-caching)",
    )
    group.add_argument(
        "--prompt-lookup",
        action=argparse.BooleanOptionalAction,
        help="propose tokens from the prompt: 1.65x faster answers from sources here, 0.97x "
        "on plain questions; the text can differ",
    )
    group.add_argument(
        "--draft-model",
        type=Path,
        metavar="PATH",
        help="a smaller model of the same family (folder or .gguf) that proposes tokens; pays "
        "only with a much smaller draft",
    )
    group.add_argument(
        "--sparse-attention",
        action=argparse.BooleanOptionalAction,
        help="sparse attention while reading long prompts (0.99x first token here at 8k tokens)",
    )
    group.add_argument(
        "--weight-sparsity",
        action=argparse.BooleanOptionalAction,
        help="decompress sparse weights on the fly: pays only for sparse models on AMX CPUs",
    )
    group.add_argument(
        "--split-model",
        choices=PARALLELISMS,
        help="split the model across the CPU's sockets (tensor parallel) or the GPUs (pipeline "
        "parallel); only on machines with two sockets or two GPUs",
    )


def _eviction_tokens(text: str) -> int:
    """``--cache-eviction``'s value: 0 (off) or a cache size in range."""
    try:
        tokens = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of tokens: {text!r}") from None
    if tokens != 0 and not MIN_EVICTION_CACHE_TOKENS <= tokens <= MAX_EVICTION_CACHE_TOKENS:
        raise argparse.ArgumentTypeError(
            f"0 (off) or {MIN_EVICTION_CACHE_TOKENS}-{MAX_EVICTION_CACHE_TOKENS} tokens, "
            f"not {tokens}"
        )
    return tokens


def engine_from(args: argparse.Namespace, stored: PerformanceSettings) -> EngineOptions:
    """The engine options of this run: each flag given, else the stored preset's value.

    Raises:
        CliError: a draft model path that does not exist.
    """
    base = stored.engine()
    eviction = args.cache_eviction
    draft = args.draft_model
    if draft is not None and not _exists(draft):
        raise CliError(f"--draft-model {draft}: no such file or folder")
    return EngineOptions(
        kv_cache_precision=args.kv_cache or base.kv_cache_precision,
        prefix_caching=_given(args.prefix_caching, base.prefix_caching),
        cache_eviction=base.cache_eviction if eviction is None else eviction > 0,
        eviction_cache_tokens=eviction or base.eviction_cache_tokens,
        prompt_lookup=_given(args.prompt_lookup, base.prompt_lookup),
        draft_model=draft.expanduser().resolve() if draft is not None else base.draft_model,
        sparse_attention=_given(args.sparse_attention, base.sparse_attention),
        weight_sparsity=_given(args.weight_sparsity, base.weight_sparsity),
        parallelism=args.split_model or base.parallelism,
    )


def _exists(path: Path) -> bool:
    try:
        return bool(str(path)) and path.expanduser().exists()
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return False


def _given(flag: bool | None, stored: bool) -> bool:
    return stored if flag is None else flag


def engine_line(options: EngineOptions) -> str:
    """``engine: kv_cache_precision=u4, prompt_lookup=True`` (or ``engine: defaults``)."""
    changed = describe(options)
    if not changed:
        return "engine: defaults"
    return "engine: " + ", ".join(f"{name}={value}" for name, value in changed.items())
