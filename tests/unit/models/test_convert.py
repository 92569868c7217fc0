"""A conversion job: nothing starts without the conversion tools, an output without its tokenizer
is refused, work folders of dead conversions are removed."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert import _validate, convert_model, remove_abandoned_work
from app.models.convert_plan import ConversionPlan, ConvertRequest, Weights
from app.models.registry import ModelRegistry
from app.models.toolchain_env import ToolchainMissingError
from tests.ui.fakes import fake_model_folder
from tests.unit.models.test_convert_plan import checkpoint, registry

__all__ = ["registry"]  # fixtures, imported for the tests below


def test_without_the_conversion_tools_nothing_starts(
    tmp_path: Path, registry: ModelRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frozen app (PyInstaller sets ``sys.frozen``) with no private environment: refused
    before any work, in words the GUI can show (no command named)."""
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(
        ToolchainMissingError, match=r"^The conversion toolchain is not installed\.$"
    ):
        convert_model(ConvertRequest(str(checkpoint(tmp_path)), Weights.INT4), registry)
    assert not registry.models_dir.exists() or not any(registry.models_dir.iterdir())


def test_an_output_without_its_tokenizer_is_refused(tmp_path: Path) -> None:
    """optimum skips a tokenizer it cannot convert without failing: the output check catches it."""
    output = fake_model_folder(tmp_path)
    plan = ConversionPlan("src", True, ModelTask.CHAT, "x", ())
    _validate(output, plan)  # complete: accepted
    (output / "openvino_tokenizer.xml").unlink()
    with pytest.raises(UserError, match="tokenizer did not"):
        _validate(output, plan)
    shutil.rmtree(output)
    with pytest.raises(UserError, match="produced no model"):
        _validate(output, plan)


def test_work_folders_of_dead_conversions_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / ".converting-999999999-abc"  # no such process
    alive = tmp_path / f".converting-{os.getpid()}-def"
    for folder in (dead, alive):
        (folder / "model").mkdir(parents=True)
    remove_abandoned_work(tmp_path)
    assert not dead.exists() and alive.exists()
