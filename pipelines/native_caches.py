"""Bounds on the caches OpenVINO's CPU plugin keeps for every input shape it meets.

A chat turn sends a prompt of a new length almost every time (the history grows, then slides),
and each new shape makes the CPU plugin build executors and oneDNN build primitives (JIT code,
scratchpad descriptors) that are kept for reuse in two caches:

- the plugin's *runtime cache*, per compiled model, ``CPU_RUNTIME_CACHE_CAPACITY`` entries
  (5000 by default);
- oneDNN's *primitive cache*, one per process, ``ONEDNN_PRIMITIVE_CACHE_CAPACITY`` entries
  (1024 by default), which also keeps what the runtime cache lets go.

With the defaults a 200-turn conversation grew the process by about half (a 135M-parameter
GGUF chat model: 496 → 638 MB in 200 turns of 300–500 tokens; the tiny test model +54 %), and a
prompt of a length already seen grew nothing: the growth was these caches filling with shapes
that rarely come back. Bounded (the chat model's runtime cache at
:data:`CHAT_RUNTIME_CACHE_ENTRIES`, oneDNN's at :data:`ONEDNN_PRIMITIVE_CACHE_ENTRIES`) the same
runs stayed within 3 % from turn 20 to 200 at the same speed (``benchmarks/bench_memory.py``).
A runtime cache of 0 grew as little but settled higher, as every turn rebuilt its executors.

oneDNN reads its capacity once, from the environment, when it first builds a primitive, and
offers no other way to set it from here; :func:`bound_primitive_cache` runs when this package is
imported, before any model is compiled. A value already in the environment is kept.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

ONEDNN_CACHE_VARIABLE = "ONEDNN_PRIMITIVE_CACHE_CAPACITY"
ONEDNN_PRIMITIVE_CACHE_ENTRIES = 64
"""Enough for a turn's working set (a prefill chunk, its remainder, one decode step) of every
distinct layer shape of a chat model; small enough to be full after a few turns."""

CHAT_RUNTIME_CACHE_ENTRIES = 16
"""The chat model's runtime cache on CPU (see the module docstring)."""


def bound_primitive_cache(environ: MutableMapping[str, str] | None = None) -> None:
    """Cap oneDNN's primitive cache unless the environment already sets it."""
    target = os.environ if environ is None else environ
    target.setdefault(ONEDNN_CACHE_VARIABLE, str(ONEDNN_PRIMITIVE_CACHE_ENTRIES))
