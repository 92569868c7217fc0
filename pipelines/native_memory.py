"""Native memory that grew with every new input shape, and the bounds that keep it flat.

A chat turn sends a prompt of a new length almost every time (the history grows, then slides).
With OpenVINO's and the C library's defaults a 200-turn conversation grew the process by a
quarter to three quarters (a 135M-parameter GGUF chat model: 496 → 638 MB in 200 turns of
300–500 tokens; the tiny test model +72 %), while the same prompt over and over grew nothing.
Three things held the memory; each is bounded here, before any model is compiled:

- **The CPU plugin's runtime cache**, per compiled model (``CPU_RUNTIME_CACHE_CAPACITY``, 5000
  entries by default): executors built for every new shape. The chat model's is bounded to
  :data:`CHAT_RUNTIME_CACHE_ENTRIES`, a turn's working set (prefill chunk, its remainder, one
  decode step); ``app.core.devices.tuning_properties`` sets it.
- **oneDNN's primitive cache**, one per process (``ONEDNN_PRIMITIVE_CACHE_CAPACITY``, 1024
  entries): it kept the primitives of whatever the runtime caches had let go. It is off
  (:data:`ONEDNN_PRIMITIVE_CACHE_ENTRIES`): every runtime cache already keeps the executors,
  with their primitives, that it reuses. oneDNN reads the size once, from the environment,
  when it first builds a primitive; a value already in the environment is kept.
- **The C library's heap** (glibc): a freed buffer of a few megabytes raises glibc's threshold
  for serving large blocks from fresh pages, so later large buffers of other sizes come from
  the heap and leave holes it cannot give back; the process crept up by steps whenever a
  prompt was the longest so far. A fixed threshold (:data:`MMAP_THRESHOLD_BYTES`, glibc's
  initial one) keeps large buffers in their own pages, returned when freed.

Bounded, the same conversations stayed within a few percent from turn 20 to 200, and chat,
speech, lip-sync and embedding ran as fast as with the defaults (``benchmarks/bench_memory.py``
compares the two in fresh processes; the other benchmarks run as the app is configured).
``OV_STUDIO_NATIVE_DEFAULTS=1`` leaves oneDNN's cache and glibc's threshold as the libraries
set them: to compare, or to rule these settings out when something misbehaves.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys
from collections.abc import MutableMapping

log = logging.getLogger(__name__)

NATIVE_DEFAULTS_VARIABLE = "OV_STUDIO_NATIVE_DEFAULTS"
ONEDNN_CACHE_VARIABLE = "ONEDNN_PRIMITIVE_CACHE_CAPACITY"
ONEDNN_PRIMITIVE_CACHE_ENTRIES = 0
"""oneDNN's own cache is off: the runtime caches keep what is reused (see above)."""

CHAT_RUNTIME_CACHE_ENTRIES = 16
"""The chat model's runtime cache on CPU (see the module docstring)."""

MMAP_THRESHOLD_BYTES = 128 * 1024
"""Blocks from this size up get pages of their own (glibc's initial, adaptive value, fixed)."""
_M_MMAP_THRESHOLD = -3  # mallopt(3)


def bound_primitive_cache(environ: MutableMapping[str, str] | None = None) -> None:
    """Turn oneDNN's primitive cache off unless the environment already sizes it."""
    target = os.environ if environ is None else environ
    target.setdefault(ONEDNN_CACHE_VARIABLE, str(ONEDNN_PRIMITIVE_CACHE_ENTRIES))


def fix_mmap_threshold() -> bool:
    """Give large blocks pages of their own for the life of the process (glibc only).

    Returns:
        Whether the threshold was set: False on other C libraries (macOS, Windows, musl),
        whose allocators do not raise a threshold as they go.
    """
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # not glibc
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    if mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) != 1:
        log.warning("could not fix the C library's mmap threshold")
        return False
    return True


def bound_native_memory(environ: MutableMapping[str, str] | None = None) -> None:
    """Everything above that is process-wide: call before any model is compiled."""
    target = os.environ if environ is None else environ
    if target.get(NATIVE_DEFAULTS_VARIABLE, "").strip() == "1":
        return
    bound_primitive_cache(target)
    fix_mmap_threshold()
