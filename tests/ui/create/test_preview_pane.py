"""The Create panel's preview line: it says whether the live previews come from the fast
preview decoder, the model's own decoder or are sketches — alone, and over the real image
service with the tiny LCM and a random preview decoder chosen in the settings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.images import Preview
from pipelines.images import PreviewKind
from tests.fixtures.preview_decoder_models import CONVERTED_X2
from tests.ui.create.conftest import create_context, generate
from tests.ui.fakes import Script
from tests.ui.panels import host_of, open_panel
from ui.create.preview_pane import PreviewPane
from ui.shell import main_panels


def _preview(kind: PreviewKind, step: int = 2) -> Preview:
    picture = np.full((16, 16, 3), 90, np.uint8)
    return Preview(step, 8, picture, kind)


def test_the_line_under_the_picture_says_which_previews_it_shows(qtbot: QtBot) -> None:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.start()
    assert pane.previews_kind.text() == ""
    pane.preview(_preview(PreviewKind.APPROXIMATE, 1))
    assert pane.previews_kind.text() == "Previews: sketch"
    assert pane.caption.text() == "Sketch of step 1 of 8 (blurred, from the latent)"
    pane.preview(_preview(PreviewKind.FAST, 2))
    assert pane.previews_kind.text() == "Previews: fast decoder"
    assert pane.caption.text() == "Fast preview after step 2 of 8"
    pane.preview(_preview(PreviewKind.DECODED, 3))
    assert pane.previews_kind.text() == "Previews: the model's decoder"
    assert pane.caption.text() == "Preview after step 3 of 8"
    pane.start()  # a new run says nothing until its first preview
    assert pane.previews_kind.text() == ""


@pytest.mark.integration
def test_a_chosen_preview_decoder_makes_the_panels_previews(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    diffusion_model_dir: Path,
    preview_decoder_dir: Path,
) -> None:
    ctx = create_context(app_home, script, diffusion_model_dir)
    ctx.settings.models = ctx.settings.models.with_folder(
        ModelTask.PREVIEW_DECODER, preview_decoder_dir / CONVERTED_X2
    )
    panel = open_panel(qtbot, ctx, main_panels.create_panel)
    try:
        qtbot.waitUntil(lambda: not panel.gallery.loading, timeout=5000)
        qtbot.keyClicks(panel.form.prompt, "a lighthouse at dusk")
        panel.form.steps.setValue(40)  # long enough for previews (one per 0.25 s at most)
        kinds: list[str] = []
        original = panel.preview.preview

        def seen(preview: Preview) -> None:
            kinds.append(str(preview.kind))
            original(preview)

        panel.preview.preview = seen  # type: ignore[method-assign]
        generate(qtbot, panel)
        assert panel.generate_error.text() == ""
        assert "fast" in kinds and "decoded" not in kinds
        assert panel.preview.previews_kind.text() in ("Previews: fast decoder", "Previews: sketch")
        assert not panel.preview.view.image.isNull()
    finally:
        host_of(panel).close()
