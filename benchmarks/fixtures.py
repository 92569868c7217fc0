"""The test fixture builder, loaded by path (tests/ is not a package) for the benchmarks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def load_builder() -> Any:
    """tests/fixtures/build_models.py as a module (``ensure_fixtures`` builds or reuses roles)."""
    spec = importlib.util.spec_from_file_location(
        "build_models", ROOT / "tests" / "fixtures" / "build_models.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
