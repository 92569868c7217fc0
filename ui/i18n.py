"""Translations: every user-visible string of the window goes through :func:`tr`.

Conventions (``scripts/update_translations.py`` extracts with ``pyside6-lupdate``):

- ``tr("Send")`` — a plain string literal as the first argument, never an f-string or a
  variable: lupdate reads the source, not the running program.
- Values go in named placeholders filled *after* translating:
  ``tr("Loaded {name} on {device}").format(name=..., device=...)``. Translators keep the
  placeholders; ``tests/ui/test_i18n.py`` checks every translation does.
- Counts use Qt's plural forms: ``tr("%Ln file(s)", "", count)`` (``%Ln``: the count written
  with the locale's grouping). Other numbers are written by :mod:`ui.numbers`.
- A second argument is a note for translators (the same English can need two translations):
  ``tr("Open", "menu verb")``.

The compiled ``.qm`` files are built by ``make`` (``scripts/setup.sh``) from the ``.ts`` sources
in ``assets/translations``; a missing ``.qm`` means English, never an error.
"""

from __future__ import annotations

import logging
import string
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from app.core import Text
from app.models import assets_dir
from ui.retranslation import SHOWN, Source, TranslatedText, retranslate_widgets

log = logging.getLogger(__name__)

# The language setting's values, each with its own name (shown untranslated, as every app
# shows language names). "system" follows the desktop's locale.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "zh_CN": "简体中文",
}
SYSTEM = "system"
CATALOG = "ov_studio"


def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the user's language (itself when there is no translation)."""
    return _translate(Source(text, disambiguation, n))


def _translate(source: Source) -> TranslatedText:
    """``source``'s text in the language installed, remembered for a live language switch
    (``ui.retranslation``)."""
    text = QCoreApplication.translate("", source.text, source.disambiguation, source.n)
    shown = TranslatedText(text, replace(source, args=(), kwargs=None))
    SHOWN.remember(shown, shown.source)
    return shown


def translated(text: str) -> str:
    """``text`` in the user's language when the core made it translatable (``app.core.texts``).

    Anything else (a file name, the model's words, a sentence the core has not marked yet)
    comes back unchanged. The values are filled in as the user's language writes them: a
    sentence in another sentence is translated too, and a number is written by
    :func:`ui.numbers.written` after its placeholder's format (``{size:,}`` groups digits as
    the locale does, ``{seconds:.1f}`` keeps one decimal with the locale's separator). A
    translation whose placeholders do not match falls back to English rather than failing
    where a message is shown.
    """
    if not isinstance(text, Text):
        return text
    template = QCoreApplication.translate("", text.template)
    try:
        shown = _filled(template, text.values)
    except (KeyError, IndexError, ValueError):
        log.warning("the translation of %r does not fit its values", text.template)
        return str.__str__(text)
    SHOWN.remember(shown, Source(text.template, core=text))
    return shown


def translate_again(source: Source) -> str:
    """What ``source`` (remembered by :func:`tr` or :func:`translated`) is in the language
    now installed."""
    if source.core is not None:
        return translated(source.core)
    if source.remake is not None:
        return source.remake()
    again = _translate(source)
    if source.kwargs is None:
        return again
    args = [_value_again(value) for value in source.args]
    return again.format(*args, **{name: _value_again(value) for name, value in source.kwargs})


def _value_again(value: object) -> object:
    """A value put into a translation: itself, or, if the window made it in the user's
    language (a translation, a number written by ``ui.numbers``), made again."""
    return translate_again(value.source) if isinstance(value, TranslatedText) else value


def _filled(template: str, values: dict[str, Any]) -> str:
    """``template`` with ``values`` in the user's language (see :func:`translated`)."""
    # Imported here: ui.numbers words its units through tr() from this module.
    from ui.numbers import written

    parts: list[str] = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        parts.append(literal)
        if field is None:
            continue
        value = values[field]
        if conversion:
            value = repr(value) if conversion == "r" else str(value)
        elif isinstance(value, BaseException):  # a core error: its own sentence, translated too
            value = str(value)
        if isinstance(value, str):
            parts.append(format(translated(value), spec or ""))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            parts.append(written(value, spec or ""))
        else:
            parts.append(format(value, spec or ""))
    return "".join(parts)


def translations_dir() -> Path:
    """Where the ``.ts`` sources and the compiled ``.qm`` files live."""
    return assets_dir() / "translations"


def resolve_language(setting: str, system_locale: QLocale | None = None) -> str:
    """The language code to use for ``setting`` ("system" or a key of :data:`LANGUAGES`)."""
    if setting in LANGUAGES:
        return setting
    locale = system_locale or QLocale.system()
    name = locale.name()  # e.g. "de_AT", "zh_CN", "zh_TW"
    if name in LANGUAGES:
        return name
    language = name.split("_")[0]
    if language == "zh":
        # Traditional-script locales would read Simplified poorly: English, until zh_TW ships.
        return "zh_CN" if locale.script() != QLocale.Script.TraditionalHanScript else "en"
    return language if language in LANGUAGES else "en"


def locale_for(language: str) -> QLocale:
    """The locale numbers and dates are written in for ``language``."""
    return QLocale(language) if language != "en" else QLocale(QLocale.Language.English)


class Translation:
    """The translators installed on the application, kept alive for its lifetime."""

    def __init__(self) -> None:
        self.language = "en"
        self._translators: list[QTranslator] = []

    def install(self, app: QCoreApplication, setting: str) -> str:
        """Load ``setting``'s language into ``app``; returns the language code now in use.

        Our own catalog and Qt's (standard buttons, file dialogs) are both loaded. Numbers and
        dates follow the same language through the default locale, so a German window does not
        write "1,234.5" next to German words.
        """
        self.uninstall(app)
        language = resolve_language(setting)
        locale = locale_for(language)
        QLocale.setDefault(locale if setting != SYSTEM else QLocale.system())
        self.language = language
        # English loads a catalog too: it holds the English plural forms ("1 file", "2 files").
        self._load(app, translations_dir() / f"{CATALOG}_{language}.qm")
        if language != "en":
            qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
            self._load(app, Path(qt_dir) / f"qtbase_{language}.qm")
        if isinstance(app, QApplication):  # what an open window shows follows at once
            retranslate_widgets(translate_again)
        return language

    def uninstall(self, app: QCoreApplication) -> None:
        """Remove this set's translators (strings shown afterwards are the sources)."""
        for translator in self._translators:
            app.removeTranslator(translator)
        self._translators.clear()

    def _load(self, app: QCoreApplication, path: Path) -> None:
        translator = QTranslator(app)
        if path.is_file() and translator.load(str(path)):
            app.installTranslator(translator)
            self._translators.append(translator)
        else:
            log.info("no translation file %s: those strings stay in English", path)


TRANSLATION = Translation()
"""The translators of this process: installed by the launcher at start, and again by the
*View → Language* menu, which switches the open window live."""
