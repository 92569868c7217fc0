"""Icons from Material Design Icons (the font QtAwesome ships), drawn in the palette's colours.

QtAwesome's own module imports qtpy, which resolves every Qt class eagerly (~90 ms of every
start); the window only needs one font, so this module loads that font itself and paints the
glyphs. Icons are drawn for the current palette: :func:`refresh_icons` (called by the theme on
every light/dark switch) re-draws every icon set through :func:`set_icon`.

Names are MDI's without the prefix (``"send"``, ``"content-copy"``); browse them at
https://pictogrammers.com/library/mdi/ (version 6.9, as QtAwesome 1.4 bundles).
"""

from __future__ import annotations

import json
import logging
import weakref
from functools import cache
from importlib.util import find_spec
from pathlib import Path

import shiboken6
from PySide6.QtCore import QObject, QRect, QSize, Qt
from PySide6.QtGui import QAction, QColor, QFont, QFontDatabase, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QAbstractButton, QApplication

from app.core import bundle_root

log = logging.getLogger(__name__)

FONT_FILE = "materialdesignicons6-webfont-6.9.96.ttf"
CHARMAP_FILE = "materialdesignicons6-webfont-charmap-6.9.96.json"
SIZES = (16, 24, 32, 48)
PROPERTY = "ovIcon"  # the icon name a widget was given, for refresh_icons

_actions: weakref.WeakSet[QAction] = weakref.WeakSet()


def font_dir() -> Path:
    """The folder holding the MDI font: inside a frozen build, or QtAwesome's package."""
    bundle = bundle_root()
    if bundle is not None:
        return bundle / "assets" / "icon-font"
    spec = find_spec("qtawesome")  # locates the package without running its __init__
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the qtawesome package (for its icon font) is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "fonts"


@cache
def _font_family() -> str:
    font_id = QFontDatabase.addApplicationFont(str(font_dir() / FONT_FILE))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        log.warning("the icon font %s could not be loaded: buttons show text only", FONT_FILE)
        return ""
    return families[0]


@cache
def _charmap() -> dict[str, int]:
    with (font_dir() / CHARMAP_FILE).open(encoding="utf-8") as file:
        raw: dict[str, str] = json.load(file)
    return {name: int(code, 16) for name, code in raw.items()}


def has_icon(name: str) -> bool:
    """Whether MDI has a glyph called ``name``."""
    return name in _charmap()


def _glyph(name: str, size: int, color: QColor, ratio: float) -> QPixmap:
    pixmap = QPixmap(QSize(round(size * ratio), round(size * ratio)))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    family = _font_family()
    code = _charmap().get(name)
    if not family or code is None:
        return pixmap
    painter = QPainter(pixmap)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        font = QFont(family)
        font.setPixelSize(size)
        painter.setFont(font)
        painter.setPen(color)
        painter.drawText(QRect(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, chr(code))
    finally:
        painter.end()
    return pixmap


def icon(name: str, *, color: QColor | None = None, palette: QPalette | None = None) -> QIcon:
    """The MDI glyph ``name`` as an icon in ``palette``'s button-text colours.

    Args:
        name: An MDI name such as ``"send"``; an unknown name gives an empty icon (logged).
        color: A fixed colour (e.g. the error red) instead of the palette's.
        palette: Defaults to the application's.
    """
    if not has_icon(name):
        log.warning("no icon called %r in Material Design Icons", name)
        return QIcon()
    app = QApplication.instance()
    palette = palette or (app.palette() if isinstance(app, QApplication) else QPalette())
    ratio = app.devicePixelRatio() if isinstance(app, QApplication) else 1.0
    normal = color or palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText)
    disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText)
    return _drawn(name, normal.rgba(), disabled.rgba(), ratio)


@cache
def _drawn(name: str, normal_rgba: int, disabled_rgba: int, ratio: float) -> QIcon:
    """One icon per name, colours and screen density: the same glyph is drawn once."""
    normal, disabled = QColor.fromRgba(normal_rgba), QColor.fromRgba(disabled_rgba)
    result = QIcon()
    for size in SIZES:
        pixmap = _glyph(name, size, normal, ratio)
        result.addPixmap(pixmap, QIcon.Mode.Normal)
        result.addPixmap(pixmap, QIcon.Mode.Active)
        result.addPixmap(_glyph(name, size, disabled, ratio), QIcon.Mode.Disabled)
    return result


def set_icon(target: QAbstractButton | QAction, name: str) -> None:
    """Give a button or an action the icon ``name``, re-drawn when the theme changes."""
    target.setProperty(PROPERTY, name)
    target.setIcon(icon(name))
    if isinstance(target, QAction):
        _actions.add(target)


def refresh_icons(app: QApplication) -> None:
    """Re-draw every icon set through :func:`set_icon` in the current palette's colours."""
    targets: list[QObject] = [*app.allWidgets(), *list(_actions)]
    for target in targets:
        if not shiboken6.isValid(target):  # an action of a closed dialog, not yet collected
            continue
        name = target.property(PROPERTY)
        if isinstance(name, str) and isinstance(target, QAbstractButton | QAction):
            target.setIcon(icon(name))
