"""The Chat panel and the window over real models (OpenVINO, not a fake): the tiny int8 model
loads, streams, shows its stats and stops, and answers the smoke test; GGUF files with the real
SmolLM2 — a bad file is refused in one sentence next to the picker while the model in use keeps
answering, the first load says it converts and the second does not, the model manager adds and
describes a GGUF file, at the app's own defaults its answers are sound (no glued words, no
runaways), and one cut at its length limit says so and goes on where it stopped."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from pytestqt.qtbot import QtBot

from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.paths import AppPaths
from pipelines.gguf import is_gguf_path
from tests import gguf_variants
from tests.answer_quality import ESSAYS, FACTS, Written, problems
from tests.ui.fakes import CPU
from tests.ui.helpers import ask, open_window, type_and_send
from tests.ui.panels import open_panel
from ui.chat.message_view import stats_line
from ui.chat.panel import ChatPanel
from ui.models.listing import Origin
from ui.models.manager import ModelManager
from ui.models.tables import INSTALLED_COLUMNS
from ui.shell import main_panels
from ui.shell.launcher import run_gui
from ui.shell.main_window import MainWindow

pytestmark = pytest.mark.integration

SMOL = "SmolLM2-135M-Instruct.Q4_1"
LOADED = f"{SMOL} · llama Q4_1 · CPU"
QUESTION = "What is the capital of France?"
LOAD_S = 120_000  # a first load converts: seconds here, more on a busy machine
ANSWER_MS = 900_000  # 512 tokens: under a minute here, minutes on a machine busy with others


def _registered(manager: ModelManager) -> list[int]:
    """Rows of the model list (not the bundled embedder, not the folder the chat opened)."""
    rows = manager.installed_view.rows
    return [i for i, row in enumerate(rows) if row.origin is Origin.REGISTRY]


@pytest.fixture(scope="module")
def smollm2(fixture_role: Callable[[str], Path]) -> Path:
    """The real SmolLM2-135M-Instruct Q4_1 GGUF (skipped, with the reason, when offline)."""
    return fixture_role("llm-real") / f"{SMOL}.gguf"


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One converted-model cache for the module: SmolLM2 is converted once, not per test."""
    return tmp_path_factory.mktemp("converted")


def cache_at(paths: AppPaths, target: Path) -> None:
    """Make the app keep converted GGUF models in ``target`` (a link in its cache folder)."""
    paths.converted_cache.parent.mkdir(parents=True, exist_ok=True)
    paths.converted_cache.symlink_to(target, target_is_directory=True)


def real_context(paths: AppPaths) -> AppContext:
    """The real chat path, on the CPU, answering greedily and briefly."""
    ctx = AppContext.create(paths, [CPU])
    ctx.settings.chat.max_new_tokens = 16
    ctx.settings.chat.temperature = 0.0
    return ctx


def real_window(qtbot: QtBot, paths: AppPaths) -> MainWindow:
    """The window over :func:`real_context`."""
    return open_window(qtbot, real_context(paths))


def load_real(qtbot: QtBot, chat_panel: ChatPanel, model: Path) -> None:
    with qtbot.waitSignal(chat_panel.modelLoaded, timeout=LOAD_S):
        assert chat_panel.load_model(model, "CPU")


def ask_real(qtbot: QtBot, chat_panel: ChatPanel, question: str) -> None:
    """Type ``question``, click Send and wait until the real model's answer ends well."""
    with qtbot.waitSignal(chat_panel.answerFinished, timeout=ANSWER_MS) as finished:
        type_and_send(qtbot, chat_panel, question)
    assert finished.args == [True]


def answer_of(chat_panel: ChatPanel) -> str:
    conversation = chat_panel.chat.get(chat_panel.current_conversation_id())
    return conversation.messages[-1].content


@pytest.fixture
def smol_panel(qtbot: QtBot, app_home: AppPaths, smollm2: Path, shared_cache: Path) -> ChatPanel:
    """The Chat panel alone with SmolLM2 loaded (converted once per module, then from the
    cache)."""
    cache_at(app_home, shared_cache)
    panel = open_panel(qtbot, real_context(app_home), main_panels.chat_panel)
    load_real(qtbot, panel, smollm2)
    return panel


@pytest.fixture
def smol_window(
    qtbot: QtBot, app_home: AppPaths, smollm2: Path, shared_cache: Path
) -> Iterator[MainWindow]:
    """The window with SmolLM2 loaded (converted once per module, then from the cache)."""
    cache_at(app_home, shared_cache)
    window = real_window(qtbot, app_home)
    load_real(qtbot, window.chat_panel, smollm2)
    yield window


def _no_tokenizer(source: Path, target: Path) -> Path:
    return gguf_variants.rewrite(
        source, target, keys=lambda key: None if key.startswith("tokenizer.") else key
    )


def _not_gguf(_source: Path, target: Path) -> Path:
    target.write_text("These are my notes, not a model.\n", encoding="utf-8")
    return target


def _empty(_source: Path, target: Path) -> Path:
    target.write_bytes(b"")
    return target


BAD_FILES: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "truncated": (
        gguf_variants.truncated,
        "bad.gguf is damaged or cut short (a download that did not finish?); download it again.",
    ),
    "other-architecture": (
        lambda source, target: gguf_variants.rewrite(source, target, architecture="mamba"),
        "bad.gguf is a “mamba” model; this OpenVINO reads GGUF files of llama, qwen2 and qwen3 "
        "models only. Pick a Q4_0 or Q8_0 GGUF of one of those, or convert the original "
        "checkpoint (File → Models…, Convert).",
    ),
    "not-gguf": (_not_gguf, "bad.gguf is not a GGUF model file (it does not start like one)."),
    "no-tokenizer": (
        _no_tokenizer,
        "bad.gguf has no tokenizer inside, so it cannot be run on its own; pick a GGUF file "
        "that includes one (files from llama.cpp's converter do).",
    ),
    "empty": (_empty, "bad.gguf is empty (0 bytes)."),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_gguf_gets_one_sentence_and_the_model_in_use_keeps_answering(
    qtbot: QtBot, smol_window: MainWindow, smollm2: Path, tmp_path: Path, case: str
) -> None:
    window = smol_window
    panel, picker = window.chat_panel, window.chat_panel.model_picker
    make, sentence = BAD_FILES[case]
    bad = make(smollm2, tmp_path / "bad.gguf")
    if panel.load_model(bad, "CPU"):  # refused at once (empty), or while loading (the rest)
        qtbot.waitUntil(lambda: not panel.loader.loading, timeout=LOAD_S)
    assert picker.error.isVisible() and picker.error.text() == sentence
    assert not window.notifications.isVisible()  # next to the picker: no banner, no box
    loaded = window.ctx.chat.loaded_model
    assert loaded is not None and loaded.model_path == smollm2.resolve()
    assert window.model_status.label.text() == LOADED
    assert (picker.button.name.text(), picker.button.place.text()) == (SMOL, "CPU")
    ask(qtbot, window.chat_panel, QUESTION)  # the model in use still answers
    assert "Paris" in answer_of(window.chat_panel)


def test_a_read_only_cache_loads_the_model_with_a_note(
    qtbot: QtBot, app_home: AppPaths, smollm2: Path, unwritable_folder: Path
) -> None:
    cache_at(app_home, unwritable_folder)
    window = real_window(qtbot, app_home)
    load_real(qtbot, window.chat_panel, smollm2)
    picker = window.chat_panel.model_picker
    assert not picker.error.isVisible()
    assert picker.note.isVisible()
    assert picker.note.text().startswith("The converted model could not be kept in ")
    assert picker.note.text().endswith(f"the next start converts {SMOL}.gguf again.")
    assert window.model_status.label.text() == LOADED
    ask(qtbot, window.chat_panel, QUESTION)
    assert "Paris" in answer_of(window.chat_panel)


def test_only_the_first_load_of_a_gguf_says_it_converts(
    qtbot: QtBot, app_home: AppPaths, smollm2: Path, tmp_path: Path
) -> None:
    cache_at(app_home, tmp_path / "fresh-cache")
    (tmp_path / "fresh-cache").mkdir()
    window = real_window(qtbot, app_home)
    status = window.model_status
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=LOAD_S):
        assert window.chat_panel.load_model(smollm2, "CPU")
        assert status.label.text() == f"Converting {SMOL} for OpenVINO (first time only)…"
        assert status.progress.isVisible() and status.cancel_button.isVisible()
    assert status.label.text() == LOADED
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=LOAD_S):
        assert window.chat_panel.load_model(smollm2, "CPU")
        assert status.label.text() == f"Loading {SMOL}…"  # from the cache: no conversion
    assert status.label.text() == LOADED


def test_the_model_manager_adds_a_gguf_file_and_shows_what_it_is(
    qtbot: QtBot, smol_window: MainWindow, smollm2: Path, tmp_path: Path
) -> None:
    manager = smol_window.open_models()
    qtbot.waitExposed(manager)
    cut = gguf_variants.truncated(smollm2, tmp_path / "cut.gguf")
    assert manager.add_folder(cut)
    qtbot.waitUntil(manager.installed_error.isVisible, timeout=30_000)
    assert manager.installed_error.text() == (
        "cut.gguf is damaged or cut short (a download that did not finish?); download it again."
    )
    assert _registered(manager) == []
    assert manager.add_folder(smollm2)
    assert not manager.add_button.isEnabled()  # reading the file's metadata
    qtbot.waitUntil(lambda: len(_registered(manager)) == 1, timeout=30_000)
    qtbot.waitUntil(manager.add_button.isEnabled, timeout=5000)
    row = {
        column: manager.installed.item(0, index).text()
        for index, column in enumerate(INSTALLED_COLUMNS)
    }
    assert (row["Model"], row["Size"], row["Source"]) == (SMOL, "93.8 MB", "file you added")
    assert (row["Task"], row["Format"], row["Weights"]) == ("Chat", "GGUF · llama", "Q4_1")
    context = QLocale().toString(8192)  # the language's digit grouping ("8,192" in English)
    assert (row["Context"], row["Parameters"], row["State"]) == (context, "135M", "ready")
    assert f"llama · Q4_1 · 135M parameters · {context}-token context" in (
        manager.installed.item(0, 0).toolTip()
    )
    assert not manager.installed_error.isVisible()


@pytest.mark.real_model
def test_at_the_apps_defaults_answers_are_sound_and_cut_ones_say_so(
    qtbot: QtBot, app_home: AppPaths, smollm2: Path, shared_cache: Path
) -> None:
    # A fresh profile and the model the welcome page offers, at the app's own generation
    # settings (random seeds): long answers reach 512 tokens without breaking into glued
    # words, and one-line questions get answers that end (tests/answer_quality.py).
    cache_at(app_home, shared_cache)
    ctx = AppContext.create(app_home, [CPU])
    panel = open_panel(qtbot, ctx, main_panels.chat_panel)
    load_real(qtbot, panel, smollm2)
    settings = panel.generation_settings()
    assert (settings.max_new_tokens, settings.seed) == (512, None)
    written: list[Written] = []
    for prompt in (*ESSAYS, *FACTS, *FACTS):
        panel.new_conversation()
        ask_real(qtbot, panel, prompt)
        answer = ctx.chat.get(panel.current_conversation_id()).messages[-1]
        tokens = int(answer.metrics["output_tokens"])
        written.append(Written(prompt, answer.content, tokens, answer.cut))
        notice = panel.view.message_widgets()[-1].cut
        assert notice.isVisible() == answer.cut  # the panel says so
        assert notice.button.isVisible() == answer.cut
        assert tokens == 512 or not answer.cut
    found = problems(written)
    assert not found, "\n".join(found)
    assert any(answer.cut for answer in written[: len(ESSAYS)])  # long answers were tested
    # An answer of 512 tokens that is not cut ended on its last token: its end-of-turn token
    # or the loop guard (pipelines/repetition.py, which reads the answer every few characters)
    # found its loop there. Once in a run happens (CI, 2026-12-01); every time would be a bug.
    full_uncut = [w.prompt for w in written if w.tokens == 512 and not w.cut]
    assert len(full_uncut) <= 1, full_uncut


@pytest.mark.real_model
def test_continue_goes_on_where_a_cut_answer_stopped(qtbot: QtBot, smol_panel: ChatPanel) -> None:
    # Greedy (smol_panel), an answer cut at 16 tokens and continued for 16 more is the
    # answer written at 32 tokens in one go.
    panel = smol_panel
    ask_real(qtbot, panel, "Write a long essay about dogs.")
    cut = panel.chat.get(panel.current_conversation_id()).messages[-1]
    assert cut.cut and cut.metrics["output_tokens"] == 16
    button = panel.view.message_widgets()[-1].cut.button
    with qtbot.waitSignal(panel.answerFinished, timeout=ANSWER_MS):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    continued = answer_of(panel)
    assert continued.startswith(cut.content) and len(continued) > len(cut.content)
    panel.signals.settings.chat.max_new_tokens = 32
    panel.new_conversation()
    ask_real(qtbot, panel, "Write a long essay about dogs.")
    assert answer_of(panel) == continued


@pytest.fixture
def tiny_panel(qtbot: QtBot, app_home: AppPaths, chat_model_dir: Path) -> ChatPanel:
    """The Chat panel alone with the tiny random LLM loaded."""
    panel = open_panel(qtbot, AppContext.create(app_home, [CPU]), main_panels.chat_panel)
    with qtbot.waitSignal(panel.modelLoaded, timeout=60_000):
        assert panel.load_model(chat_model_dir, "AUTO")
    return panel


@pytest.fixture
def tiny_window(qtbot: QtBot, app_home: AppPaths, chat_model_dir: Path) -> MainWindow:
    window = MainWindow(AppContext.create(app_home, [CPU]))
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=60_000):
        assert window.chat_panel.load_model(chat_model_dir, "AUTO")
    return window


def test_real_model_answers_in_the_window(qtbot: QtBot, tiny_window: MainWindow) -> None:
    window = tiny_window
    panel = window.chat_panel
    assert window.model_status.label.text() == "llm-int8 · AUTO → CPU"
    window.ctx.settings.chat.max_new_tokens = 12
    batches: list[str] = []
    panel.answers.textReady.connect(batches.append)  # how many batches depends on speed
    with qtbot.waitSignal(panel.answerFinished, timeout=60_000) as finished:
        type_and_send(qtbot, panel, "Hello model")
    assert finished.args == [True]
    assert batches and all(batches)  # text streamed in before the answer was complete
    [question, answer] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert question.content == "Hello model"
    assert answer.metrics["output_tokens"] == 12
    shown = panel.view.toPlainText()
    # Random weights write arbitrary bytes; markdown rendering drops control characters,
    # so compare the words and the (deterministic) stats line.
    assert all(word in shown for word in re.findall(r"\w+", answer.content))
    assert stats_line(answer) in shown
    assert re.search(r"12 tokens · [\d.]+ tok/s · TTFT \d+ ms · AUTO → CPU", shown)
    assert panel.input.toPlainText() == ""


def test_real_model_streams_and_stops(qtbot: QtBot, tiny_panel: ChatPanel) -> None:
    panel = tiny_panel
    panel.signals.settings.chat.max_new_tokens = 2000  # long enough to stop half-way
    panel.signals.settings.chat.temperature = 0.0
    type_and_send(qtbot, panel, "Write a long answer")
    qtbot.waitUntil(lambda: len(panel.view.streaming_text) > 0, timeout=60_000)
    assert panel.generating  # tokens are on screen while the answer is still being written
    with qtbot.waitSignal(panel.answerFinished, timeout=60_000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)  # "Stop"
    [_, answer] = panel.chat.get(panel.current_conversation_id()).messages
    assert answer.stopped
    assert 0 < answer.metrics["output_tokens"] < 2000
    assert stats_line(answer).endswith("AUTO → CPU · stopped")
    assert stats_line(answer) in panel.view.toPlainText()


def test_smoke_test_answers_with_the_real_model(
    gguf_home: AppPaths, smoke_chat_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The real SmolLM2 GGUF when it could be fetched (a real answer), else the tiny model.
    question = "What is the capital of France?"
    assert run_gui(smoke_test=True, model=smoke_chat_model, device="CPU", prompt=question) == 0
    assert "smoke test passed: answered" in capsys.readouterr().out
    [stored] = ConversationStore(gguf_home.conversations_dir).load_all()
    [asked, answer] = stored.messages
    assert asked.content == question and answer.content
    if is_gguf_path(smoke_chat_model):
        assert "Paris" in answer.content
