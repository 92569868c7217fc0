"""optimum-intel imports diffusers' pipelines when diffusers is installed, and diffusers 0.36
imports a name transformers 5 removed: the conversion entry points answer it, or every export
(a chat model's too) fails."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        importlib.util.find_spec("diffusers") is None, reason="diffusers is not installed"
    ),
]
REPO = Path(__file__).resolve().parents[3]
IMPORT_OPTIMUM_INTEL = "from optimum.intel.openvino import OVQuantizer; print('imported')"


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False
    )


def test_optimum_intel_imports_once_the_removed_names_are_answered() -> None:
    shimmed = _run(
        "from app.models.transformers_compat import answer_removed_names\n"
        "answer_removed_names()\n" + IMPORT_OPTIMUM_INTEL
    )
    assert shimmed.returncode == 0, shimmed.stderr[-2000:]
    assert shimmed.stdout.strip().endswith("imported")


def test_without_the_answer_the_import_fails_while_diffusers_needs_it() -> None:
    plain = _run(IMPORT_OPTIMUM_INTEL)
    if plain.returncode == 0:
        pytest.skip("this diffusers no longer imports transformers.MT5Tokenizer: drop the shim")
    assert "MT5Tokenizer" in plain.stderr
