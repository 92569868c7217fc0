"""Render assets/icons/ov-studio.svg to the PNG sizes of the hicolor theme and a Windows .ico.

``python scripts/render_icons.py OUT`` writes ``OUT/hicolor/<n>x<n>/apps/ov-studio.png`` and
``OUT/ov-studio.ico`` (Qt's SVG renderer and ICO writer: no other tool needed on the build
machine, Linux or Windows). The PNGs are build products, never committed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SVG = Path(__file__).resolve().parent.parent / "assets" / "icons" / "ov-studio.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZE = 256  # Windows scales down from the largest image; 256 is the ICO maximum


def render(renderer: QSvgRenderer, size: int) -> QImage:
    """The mark as a transparent ``size``×``size`` image."""
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def main(out: Path) -> int:
    """Write every size and the .ico; returns the exit code."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # images only: no display needed
    _app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        sys.stderr.write(f"error: cannot read {SVG}\n")
        return 1
    for size in SIZES:
        folder = out / "hicolor" / f"{size}x{size}" / "apps"
        folder.mkdir(parents=True, exist_ok=True)
        if not render(renderer, size).save(str(folder / "ov-studio.png")):
            return 1
    return 0 if render(renderer, ICO_SIZE).save(str(out / "ov-studio.ico"), "ICO") else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
