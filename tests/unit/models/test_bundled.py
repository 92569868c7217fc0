"""The bundled embedder's set-up as the core sees it: when it is needed, and what is said."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.models import bundled
from app.models.bundled import (
    ConversionToolchainMissingError,
    EmbedderNotSetUpError,
    default_embedder_dir,
    install_default_embedder,
)
from app.models.toolchain_env import toolchain_status

CPU = DeviceInfo("CPU", "Test CPU")


def test_a_fresh_profile_needs_the_set_up_and_says_so_without_a_command(
    app_home: AppPaths,
) -> None:
    knowledge = AppContext.create(app_home, [CPU]).knowledge
    assert knowledge.needs_setup()
    with pytest.raises(EmbedderNotSetUpError) as caught:
        knowledge.embedder()
    assert str(caught.value).startswith("The bundled embedding model is not set up yet")
    assert "python" not in str(caught.value) and "`" not in str(caught.value)


def test_a_chosen_folder_that_is_gone_is_not_a_set_up(app_home: AppPaths, tmp_path: Path) -> None:
    context = AppContext.create(app_home, [CPU])
    context.settings.models = context.settings.models.with_folder(
        ModelTask.EMBEDDING, tmp_path / "gone"
    )
    assert not context.knowledge.needs_setup()
    with pytest.raises(UserError, match="is missing or incomplete: choose another") as caught:
        context.knowledge.embedder()
    assert not isinstance(caught.value, EmbedderNotSetUpError)


def test_without_the_conversion_tools_nothing_starts_and_models_are_named(
    app_home: AppPaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tools are looked for as a frozen app does: only in the (absent) private environment.
    monkeypatch.setattr(bundled, "toolchain_status", partial(toolchain_status, frozen=True))
    with pytest.raises(ConversionToolchainMissingError, match=r"Models… → Convert"):
        install_default_embedder(app_home)
    target = default_embedder_dir(app_home)
    assert not target.exists() and not (target.parent.exists() and any(target.parent.iterdir()))


def test_an_embedder_in_place_is_used_as_it_is(
    app_home: AppPaths, embedding_model_dir: Path
) -> None:
    target = default_embedder_dir(app_home)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(embedding_model_dir, target_is_directory=True)
    assert install_default_embedder(app_home) == target  # no conversion starts
    assert not AppContext.create(app_home, [CPU]).knowledge.needs_setup()
