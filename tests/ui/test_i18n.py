"""Translation: the language setting resolved against the system locale, untranslated text
unchanged; the shipped translations complete, faithful to their placeholders, and actually on
screen.

The window is opened in German and every panel is walked: a visible text made of English words
(the English of our own string catalog) fails the test, so a string that was never passed
through ``tr()`` is caught as well as one that was never translated."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QLocale, Qt, QTranslator
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTableView,
    QTextEdit,
    QTreeView,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.core.devices import DeviceInfo
from tests.ui.fakes import CPU
from ui.chat.answer_format import schema_problem
from ui.i18n import resolve_language, tr, translated, translations_dir
from ui.shell.main_window import MainWindow
from ui.widgets.inline_error import InlineError

LANGUAGES = ("de", "zh_CN")
PLACEHOLDER = re.compile(r"\{[A-Za-z_0-9]*(?:![rsa])?(?::[^{}]*)?\}|%L?n|%\d")
WORD = re.compile(r"[A-Za-z][a-z]{2,}")
TAG = re.compile(r"<[^>]+>")
PATH = re.compile(r"\S*/\S*")
# Words that read the same in a German window: product, format and technology names.
PROPER = {
    "openvino",
    "postgresql",
    "pgvector",
    "hugging",
    "face",
    "whisper",
    "speecht5",
    "wav2lip",
    "smollm2",
    "minilm",
    "gguf",
    "onnx",
    "json",
    "html",
    "markdown",
    "intel",
    "python",
    "ollama",
    "openai",
    "studio",
    "token",
    "tokens",
    "auto",
    "cpu",
    "gpu",
    "npu",
    "ttft",
    "english",
    "deutsch",
    "pdf",
    "docx",
    "txt",
    "wav",
    "mp3",
    "mp4",
    "png",
    "jpeg",
    "http",
    "https",
    "url",
    "api",
    "int4",
    "int8",
    "fp16",
    "rag",
    "lan",
    "blazeface",
    "qwen",
    "llama",
    "phi",
    "mistral",
    "bge",
    "all",
    "instruct",
    "chat",
    "server",
    "avatar",
    "lip",
    "sync",
    "tok",
}


def catalog(language: str) -> ET.Element:
    return ET.parse(translations_dir() / f"ov_studio_{language}.ts").getroot()


def forms(message: ET.Element) -> list[str]:
    translation = message.find("translation")
    if translation is None:
        return []
    plural = [form.text or "" for form in translation.iter("numerusform")]
    return plural or [translation.text or ""]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated(language: str) -> None:
    root = catalog(language)
    messages = list(root.iter("message"))
    assert len(messages) > 300, "the catalog is empty: run scripts/update_translations.py"
    unfinished = [
        message.findtext("source")
        for message in messages
        if message.find("translation") is not None
        and message.find("translation").get("type") == "unfinished"  # type: ignore[union-attr]
    ]
    assert not unfinished, f"{len(unfinished)} untranslated, e.g. {unfinished[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_their_placeholders(language: str) -> None:
    broken = []
    for message in catalog(language).iter("message"):
        source = message.findtext("source") or ""
        # A plural form may leave %n out ("eine Datei"); every other placeholder must stay.
        wanted = set(PLACEHOLDER.findall(source)) - {"%n", "%Ln"}
        translation = message.find("translation")
        if translation is not None and translation.get("type") == "unfinished":
            continue  # the other test reports it
        for form in forms(message):
            if set(PLACEHOLDER.findall(form)) - {"%n", "%Ln"} != wanted:
                broken.append(f"{source!r} → {form!r}")
    assert not broken, "\n".join(broken)


def english_vocabulary() -> set[str]:
    """Words of our English sources that the German catalog never uses itself."""
    root = catalog("de")
    english: set[str] = set()
    german: set[str] = set()
    for message in root.iter("message"):
        source = TAG.sub(" ", message.findtext("source") or "")
        english.update(word.lower() for word in WORD.findall(source))
        for form in forms(message):
            german.update(w.lower() for w in WORD.findall(TAG.sub(" ", form)))
    return english - german - PROPER


def model_names() -> list[str]:
    """The catalog's model names, longest first: names, not English (which of them the
    welcome page recommends depends on the machine's memory and disk)."""
    path = translations_dir().parent / "catalog.json"
    models = json.loads(path.read_text(encoding="utf-8"))["models"]
    return sorted((str(model["name"]) for model in models), key=len, reverse=True)


def interface_text(text: str) -> str:
    """``text`` without what is not the window's words: tags, paths and model names."""
    text = PATH.sub(" ", TAG.sub(" ", text))
    for name in model_names():
        text = text.replace(name, " ")
    return text


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(widget description, text) for every text a user can see under ``root``."""
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisibleTo(root) or widget.window() is not root.window():
            continue
        name = f"{type(widget).__name__} {widget.objectName()!r}"
        texts: list[str] = [widget.toolTip()]
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QLineEdit | QTextEdit | QPlainTextEdit):
            texts.append(widget.placeholderText())
        elif isinstance(widget, QGroupBox):
            texts.append(widget.title())
        elif isinstance(widget, QTabBar):
            texts.extend(widget.tabText(i) for i in range(widget.count()))
        elif isinstance(widget, QTableView | QTreeView):
            model = widget.model()
            if model is not None:
                texts.extend(
                    str(model.headerData(column, Qt.Orientation.Horizontal) or "")
                    for column in range(model.columnCount())
                )
        elif isinstance(widget, QComboBox) and widget.count():
            texts.append(widget.currentText())
        for text in texts:
            if text:
                yield name, text


def english_on_panels(qtbot: QtBot, window: MainWindow) -> list[str]:
    """The texts of ``window``'s panels (each shown in turn) that use English words."""
    vocabulary = english_vocabulary()
    english: list[str] = []
    for index, name in enumerate(window.panels):
        window.show_panel(name)
        qtbot.wait(50)
        for where, text in visible_texts(window):
            text = interface_text(text)
            words = {w.lower() for w in WORD.findall(text)}
            found = sorted(words & vocabulary)
            if found:
                english.append(f"panel {index}: {where}: {text!r} ({', '.join(found)})")
    return english


def test_every_panel_reads_german(
    qtbot: QtBot, german: None, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    window = make_window([CPU])
    window.resize(1600, 1000)
    english = english_on_panels(qtbot, window)
    assert not english, f"{len(english)} English texts in German:\n" + "\n".join(english)


def test_the_windows_opened_from_the_menus_read_german(
    qtbot: QtBot, german: None, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    vocabulary = english_vocabulary()
    window = make_window([CPU])
    english: list[str] = []
    manager = window.open_models()
    opened: list[QWidget] = [window.about(), window.open_transcribe(), window.choose_database()]
    opened.append(window.open_server_settings())
    for index in range(manager.tabs.count()):
        manager.tabs.setCurrentIndex(index)
        qtbot.wait(20)
        opened_now = [manager, *opened]
        for root in opened_now:
            for where, text in visible_texts(root):
                if text == "Qt for Python:":  # a product's name
                    continue
                words = {w.lower() for w in WORD.findall(interface_text(text))}
                found = sorted(words & vocabulary)
                if found:
                    english.append(f"{type(root).__name__}: {where}: {text!r} ({', '.join(found)})")
    for root in opened:
        root.close()
    assert not english, f"{len(english)} English texts in German:\n" + "\n".join(
        sorted(set(english))
    )


def test_a_core_sentence_next_to_the_schema_box_reads_german(qtbot: QtBot, german: None) -> None:
    """The JSON-schema budget's sentences are the core's (``app.core.texts.tr``): the window
    shows them in the user's language, values filled in."""
    error = InlineError()
    qtbot.addWidget(error)
    bomb = '{"type": "array", "items": ' * 30 + '{"type": "string"}' + "}" * 30
    error.show_message(schema_problem(bomb))
    assert error.text() == (
        "Das JSON-Schema verschachtelt Arrays und Objekte 30 Ebenen tief; höchstens 16 sind "
        "erlaubt."
    )


def test_a_grammar_trial_refusal_reads_german(qtbot: QtBot, german: None) -> None:
    """The grammar guard's sentences are the core's too (``app.chat.structured_guard``)."""
    from app.chat.structured_guard import refusal
    from pipelines.grammar_probe import Verdict

    error = InlineError()
    qtbot.addWidget(error)
    error.show_message(refusal(Verdict("memory", limit=1 << 30)))
    assert error.text() == (
        "Dieses JSON-Schema würde mehr als 1 GB Arbeitsspeicher brauchen, um eingehalten zu "
        "werden; vereinfachen Sie es."
    )


def test_language_setting_resolves_against_the_system_locale() -> None:
    assert resolve_language("de") == "de"
    assert resolve_language("system", QLocale("de_AT")) == "de"
    assert resolve_language("system", QLocale("zh_CN")) == "zh_CN"
    assert resolve_language("system", QLocale("zh_TW")) == "en"  # Traditional: not shipped yet
    assert resolve_language("system", QLocale("fr_FR")) == "en"


def test_untranslated_text_comes_back_unchanged(qtbot: QtBot) -> None:
    assert tr("A sentence nobody translated {name}").format(name="x") == (
        "A sentence nobody translated x"
    )


def test_a_core_sentences_numbers_are_written_in_the_users_locale(
    german_numbers: QLocale,
) -> None:
    """The core fills its sentences in English ("12,345"); the window writes the same values
    as the user's locale does, after each placeholder's format."""
    from app.core.texts import tr as core_tr

    sentence = core_tr("{count:,} tokens, {seconds:.1f} s, {share:.0%}, {name}").format(
        count=12_345, seconds=2.25, share=0.5, name="a.gguf"
    )
    assert sentence == "12,345 tokens, 2.2 s, 50%, a.gguf"
    de = german_numbers
    assert translated(sentence) == (
        f"{de.toString(12_345)} tokens, {de.toString(2.25, 'f', 1)} s, 50%, a.gguf"
    )


def test_the_default_system_prompt_and_a_new_tool_servers_problem_read_german(
    qtbot: QtBot, german: None, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    """The default system prompt follows the language; the tool-server validator's sentence
    (the core's, through pydantic) reaches its field in German."""
    window = make_window([CPU])
    assert window.chat_panel.system_prompt.prompt() == "Du bist ein hilfreicher Assistent."
    dialog = window.open_tools()
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert dialog.form.errors["command"].text() == ""  # nothing typed yet: nothing said
    dialog.buttons.accepted.emit()
    assert dialog.form.errors["command"].text() == (
        "Geben Sie das Programm ein, das den Werkzeugserver startet, z. B. uvx mcp-server-time."
    )
    dialog.reject()


def test_a_core_sentences_numbers_read_german(german: None, german_numbers: QLocale) -> None:
    """A core sentence with a count: German words and German digit grouping."""
    from app.core.texts import tr as core_tr

    sentence = core_tr(
        "The message is about {fixed:,} tokens but this model can read {budget:,} while "
        "leaving room for a {max_new_tokens}-token answer. Shorten it or lower max new tokens."
    ).format(fixed=12_345, budget=1_536, max_new_tokens=512)
    assert translated(sentence) == (
        f"Die Nachricht hat etwa {german_numbers.toString(12_345)} Token, aber dieses Modell "
        f"kann nur {german_numbers.toString(1_536)} lesen, wenn Platz für eine Antwort mit 512 "
        "Token bleiben soll. Kürzen Sie sie oder senken Sie „Max. neue Token“."
    )


class _MarkingTranslator(QTranslator):
    """A catalog that knows only ``sources``: each is "translated" to itself in brackets, so a
    test sees which sentences went through the window's translator."""

    def __init__(self, sources: set[str]) -> None:
        super().__init__()
        self._sources = sources

    def isEmpty(self) -> bool:  # noqa: N802 - Qt's name
        return False

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        return f"[{source}]" if source in self._sources else ""


def test_the_knowledge_refusals_and_file_failures_go_through_the_translator(
    qtbot: QtBot, qapp: QApplication
) -> None:
    """The Knowledge feature's busy refusals and per-file failures are the core's sentences
    (``app.core.texts.tr``): the window shows them in the user's language."""
    from pathlib import Path

    from app.core.errors import BusyError
    from app.knowledge.ingest import BUSY_RUNNING
    from app.knowledge.ingest_failures import file_failure
    from app.knowledge.knowledge_models import BUSY_INGEST

    failure = file_failure(Path("/in/notes.txt"), PermissionError(13, "Permission denied"))
    templates = {BUSY_RUNNING.template, BUSY_INGEST.template, failure.template}
    translator = _MarkingTranslator(templates)
    qapp.installTranslator(translator)
    try:
        error = InlineError()
        qtbot.addWidget(error)
        for sentence in (BUSY_RUNNING, BUSY_INGEST):
            error.show_message(str(BusyError(sentence)))
            assert error.text() == f"[{sentence}]"
        error.show_message(failure)
        assert error.text() == "[notes.txt could not be read: permission denied.]"
    finally:
        qapp.removeTranslator(translator)
