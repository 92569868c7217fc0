"""Native memory that grew with every new prompt shape is bounded in every process of the app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.native_memory import (
    NATIVE_DEFAULTS_VARIABLE,
    ONEDNN_CACHE_VARIABLE,
    ONEDNN_PRIMITIVE_CACHE_ENTRIES,
    bound_native_memory,
    bound_primitive_cache,
    fix_mmap_threshold,
)

ROOT = Path(__file__).resolve().parents[3]


def _capacity_seen_by_a_new_process(environ: dict[str, str]) -> str:
    """What oneDNN will read in a new process of the app (the command line's imports)."""
    code = f"import app.cli.main, os; print(os.environ.get({ONEDNN_CACHE_VARIABLE!r}, ''))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=environ, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_app_bounds_onednns_cache_before_any_model_is_compiled() -> None:
    environ = {key: value for key, value in os.environ.items() if key != ONEDNN_CACHE_VARIABLE}
    assert _capacity_seen_by_a_new_process(environ) == str(ONEDNN_PRIMITIVE_CACHE_ENTRIES)


def test_a_capacity_set_by_the_user_is_kept() -> None:
    environ = {**os.environ, ONEDNN_CACHE_VARIABLE: "512"}
    assert _capacity_seen_by_a_new_process(environ) == "512"
    mapping = {ONEDNN_CACHE_VARIABLE: "0"}
    bound_primitive_cache(mapping)
    assert mapping == {ONEDNN_CACHE_VARIABLE: "0"}
    empty: dict[str, str] = {}
    bound_primitive_cache(empty)
    assert empty == {ONEDNN_CACHE_VARIABLE: str(ONEDNN_PRIMITIVE_CACHE_ENTRIES)}


def test_the_library_defaults_can_be_kept_to_compare_or_rule_the_bounds_out() -> None:
    environ = {key: value for key, value in os.environ.items() if key != ONEDNN_CACHE_VARIABLE}
    environ[NATIVE_DEFAULTS_VARIABLE] = "1"
    assert _capacity_seen_by_a_new_process(environ) == ""  # oneDNN keeps its own default
    mapping = {NATIVE_DEFAULTS_VARIABLE: "1"}
    bound_native_memory(mapping)
    assert ONEDNN_CACHE_VARIABLE not in mapping


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a glibc setting")
def test_large_buffers_get_pages_of_their_own_on_linux() -> None:
    assert fix_mmap_threshold()  # glibc accepted the fixed threshold
