"""Render the Create panel's pictures from real runs in the real main window, offscreen.

The pictures are drawn by the tiny random-weight Stable Diffusion inpainting model of the test
fixtures (role ``diffusion-inpaint``, built on first use): no image model with real weights can
be fetched without the model hub, so what it draws is noise — every picture says so in the
window's notification bar. They show the controls and the real OpenVINO GenAI path (text to
image, the gallery, the mask painted with the mouse), not a picture's quality.

For each size (1600×1000, 1366×768 and 1024×600):

- ``create-<width>.png``: text to image after two runs (the result, its seed and settings, the
  gallery with the newest chosen);
- ``create-running-<width>.png``: a 150-step run caught mid-way (the live preview with its
  caption, the progress and time left, Generate become Cancel), then cancelled;
- ``create-edit-<width>.png``: *Edit this* on the newest picture, inpainting, a mask stroke
  painted with mouse events.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
sys.path.insert(0, str(ROOT / "tests"))

from render_screenshots import OUT, settle, wait_until  # noqa: E402

SIZES = ((1600, 1000), (1366, 768), (1024, 600))
PROMPT = "a lighthouse on a cliff at dusk, oil painting"
NOISE = (
    "Screenshot: these pictures are drawn by a tiny random-weight test model, so they are noise."
)


def main(argv: list[str] | None = None) -> int:
    """Render the pictures at every size; returns the exit code."""
    parser = argparse.ArgumentParser(description="Render the Create panel's screenshots.")
    parser.add_argument("--size", action="append", help="only this window size, WxH")
    args = parser.parse_args(argv)
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.size] if args.size else SIZES
    from build_models import ensure_fixtures

    from ui.shell.launcher import create_application

    create_application()
    model = ensure_fixtures(["diffusion-inpaint"]) / "diffusion-inpaint"
    OUT.mkdir(parents=True, exist_ok=True)
    for width, height in sizes:
        home = Path(tempfile.mkdtemp(prefix="ov-studio-create-"))
        os.environ["OV_STUDIO_HOME"] = str(home)
        try:
            render(model, (width, height))
        finally:
            shutil.rmtree(home, ignore_errors=True)
    return 0


def render(model: Path, size: tuple[int, int]) -> None:
    """Both pictures at ``size`` over a fresh profile with ``model`` chosen."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from app.context import AppContext
    from app.core.model_tasks import ModelTask
    from app.core.paths import AppPaths
    from app.images import Mode
    from ui.shell.main_window import MainWindow

    ctx = AppContext.create(AppPaths.from_environment())
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.IMAGE_GENERATION, model)
    window = MainWindow(ctx)
    window.resize(*size)
    window.show()
    window.show_panel("Create")
    panel = window.create_panel
    wait_until(lambda: not panel.gallery.loading, "the gallery")
    panel.form.prompt.setPlainText(PROMPT)
    panel.form.steps.setValue(20)
    for seed, count in ((7, 2), (42, 1)):
        panel.form.seed.setText(str(seed))
        panel.form.count.setValue(count)
        panel.generate()
        wait_until(lambda: not panel.generating, "the pictures")
    wait_until(lambda: len(panel.gallery.items()) == 3, "the gallery")
    window.notifications.show_message(NOISE)
    settle()
    save(window, f"create-{size[0]}")
    panel.form.steps.setValue(150)
    panel.generate()
    wait_until(lambda: _midway(panel), "a preview mid-way")
    save(window, f"create-running-{size[0]}")
    panel.cancel()
    wait_until(lambda: not panel.generating, "the cancel")
    panel.form.steps.setValue(20)
    panel.gallery.buttons["edit"].click()
    wait_until(lambda: panel.edit.canvas.has_picture, "the picture to edit")
    panel.edit.set_mode(Mode.INPAINTING)
    panel.edit.brush_size.setValue(12)
    panel.form.prompt.setPlainText("a red door")
    settle()
    canvas = panel.edit.canvas
    QTest.mousePress(canvas, Qt.MouseButton.LeftButton, pos=canvas.to_widget(14, 40))
    for x in range(14, 52, 4):
        QTest.mouseMove(canvas, canvas.to_widget(x, 40 + (x % 8)))
    QTest.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=canvas.to_widget(50, 44))
    settle()
    save(window, f"create-edit-{size[0]}")
    window.close()
    settle()


def _midway(panel: object) -> bool:
    """Whether a run shows a preview and is past its tenth step (its time left is known)."""
    from ui.create import CreatePanel

    assert isinstance(panel, CreatePanel)
    return panel.preview.previews >= 2 and panel.preview.progress_bar.value() >= 10


def save(window: object, name: str) -> None:
    """Grab ``window`` as docs/screenshots/NAME.png."""
    from PySide6.QtWidgets import QWidget

    assert isinstance(window, QWidget)
    path = OUT / f"{name}.png"
    window.grab().save(str(path))
    sys.stdout.write(f"{path}\n")


if __name__ == "__main__":
    sys.exit(main())
