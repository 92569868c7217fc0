"""The conversion tools' requirement list: the ``convert`` extra plus the runtime's pins."""

from __future__ import annotations

import tomllib

import pytest

from app.core.runtime import source_root
from app.models.toolchain_requirements import CONVERT_EXTRA, tool_requirements
from tests.wheel_server import uv_sandbox, wheel_folder  # noqa: F401  (fixtures: uv, wheels)

pytestmark = pytest.mark.integration


def test_product_list_is_the_convert_extra_plus_runtime_pins() -> None:
    pyproject = tomllib.loads((source_root() / "pyproject.toml").read_text(encoding="utf-8"))
    extra = pyproject["project"]["optional-dependencies"]["convert"]
    assert list(CONVERT_EXTRA) == extra
    requirements = tool_requirements()
    assert requirements[: len(extra)] == tuple(extra)
    import importlib.metadata

    for name in ("openvino", "openvino-tokenizers", "numpy", "huggingface_hub"):
        assert f"{name}=={importlib.metadata.version(name)}" in requirements
