"""Walk the whole window as a new user meets it and save a picture of every stop, in every
language, theme and screen size asked for, with an index page to look at them side by side.

Nothing is staged: each screen size runs in a process of its own whose (offscreen) screen *is*
that size, so the window opens, fits and lays out as it would on such a screen. Two profiles
per process:

- a **fresh** one (the first start): every panel's empty state and every dialog as it opens;
- a **used** one: the real SmolLM2-135M-Instruct (the Q4_1 GGUF of the test fixtures) loaded
  through the Chat panel and answering (greedy decoding), real documents in a Knowledge
  collection searched with the real MiniLM embedder, and an answer grounded in them.

The pictures go to ``build/walk/<language>/<theme>-<W>x<H>/<stop>.png`` (``--out`` to change),
with ``build/walk/index.html`` showing every stop across the runs, and ``build/walk/cut.txt``
listing each control a picture shows outside its window or a window larger than its screen
(a hint where to look, not a verdict: the pictures are what is checked).

    python scripts/screenshot_walk.py                      # en+de × light+dark × 3 sizes
    python scripts/screenshot_walk.py --language de --size 1024x600 --profile fresh
"""

from __future__ import annotations

import argparse
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QPixmap
    from PySide6.QtWidgets import QWidget

    from app.context import AppContext
    from ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere
sys.path.insert(0, str(ROOT / "scripts"))
DEFAULT_OUT = ROOT / "build" / "walk"
SIZES = ("1600x1000", "1366x768", "1024x600")
LANGUAGES = ("en", "de")
THEMES = ("light", "dark")
PROFILES = ("fresh", "used")
QUESTION = "Write a short Python function that checks if a number is even."


def main(argv: list[str] | None = None) -> int:
    """Run one process per screen size (or, with ``--in-process``, render one); returns the
    exit code."""
    parser = argparse.ArgumentParser(description="Walk the window and save every stop's picture.")
    parser.add_argument("--language", action="append", choices=("en", "de", "zh_CN"))
    parser.add_argument("--theme", action="append", choices=THEMES)
    parser.add_argument("--size", action="append", help="a screen size, WxH (repeatable)")
    parser.add_argument("--profile", action="append", choices=PROFILES)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    languages = args.language or list(LANGUAGES)
    themes = args.theme or list(THEMES)
    sizes = args.size or list(SIZES)
    profiles = args.profile or list(PROFILES)
    if args.in_process:
        (size,) = sizes
        (language,) = languages
        return render_one_screen(args.out, language, themes, size, profiles)
    import build_translations

    if build_translations.main() != 0:  # a fresh clone has only the .ts sources
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cut.txt").unlink(missing_ok=True)  # this run's findings only
    failed = 0
    for language in languages:
        for size in sizes:
            failed += run_screen(args.out, language, themes, size, profiles)
    write_index(args.out)
    sys.stdout.write(f"{args.out / 'index.html'}\n")
    return 1 if failed else 0


def run_screen(out: Path, language: str, themes: list[str], size: str, profiles: list[str]) -> int:
    """Render one language on one screen size in a child process whose offscreen screen is
    that size; returns its exit code."""
    width, height = parse_size(size)
    with tempfile.TemporaryDirectory(prefix="ov-studio-walk-") as scratch:
        screens = Path(scratch) / "screen.json"
        screen = {"name": f"walk-{size}", "x": 0, "y": 0, "width": width, "height": height}
        screen |= {"logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
        screens.write_text(json.dumps({"screens": [screen]}), encoding="utf-8")
        env = os.environ | {"QT_QPA_PLATFORM": f"offscreen:configfile={screens}"}
        command = [sys.executable, __file__, "--in-process", "--out", str(out)]
        command += ["--language", language, "--size", size]
        command += [arg for theme in themes for arg in ("--theme", theme)]
        command += [arg for profile in profiles for arg in ("--profile", profile)]
        sys.stderr.write(f"walk: {language} on a {size} screen…\n")
        return subprocess.run(command, env=env, check=False).returncode


def parse_size(size: str) -> tuple[int, int]:
    """``"1024x600"`` → (1024, 600); a malformed size ends the run with one line."""
    try:
        width, height = (int(n) for n in size.lower().split("x"))
    except ValueError:
        raise SystemExit(f"not a size (WxH): {size!r}") from None
    return width, height


# ----- one screen, in the child process ---------------------------------------------------


def render_one_screen(
    out: Path, language: str, themes: list[str], size: str, profiles: list[str]
) -> int:
    """Both profiles' stops on this process's screen, in every theme; returns 0."""
    from ui.shell.launcher import TRANSLATION, create_application

    app = create_application()
    TRANSLATION.install(app, language)  # as the launcher does at start
    cuts: list[str] = []
    for profile in profiles:
        with profile_home(profile) as home:
            for theme, stop, picture, problems in walk_profile(profile, home, themes):
                folder = out / language / f"{theme}-{size}"
                folder.mkdir(parents=True, exist_ok=True)
                picture.save(str(folder / f"{stop}.png"))
                cuts += [f"{language} {theme} {size} {stop}: {p}" for p in problems]
    with (out / "cut.txt").open("a", encoding="utf-8") as report:
        report.writelines(f"{line}\n" for line in cuts)
    return 0


@contextmanager
def profile_home(profile: str) -> Iterator[Path]:
    """A new, empty app home for ``profile`` (``OV_STUDIO_HOME``), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix=f"ov-studio-walk-{profile}-"))
    previous = os.environ.get("OV_STUDIO_HOME")
    os.environ["OV_STUDIO_HOME"] = str(folder)
    try:
        yield folder
    finally:
        if previous is None:
            os.environ.pop("OV_STUDIO_HOME", None)
        else:
            os.environ["OV_STUDIO_HOME"] = previous
        shutil.rmtree(folder, ignore_errors=True)


Stop = tuple[str, str, "QPixmap", list[str]]
"""(theme, stop name, the QPixmap, what the cut check found)."""


def walk_profile(profile: str, home: Path, themes: list[str]) -> Iterator[Stop]:
    """Open the window over ``home`` as a user would on this screen and yield every stop."""
    from PySide6.QtGui import QGuiApplication
    from render_screenshots import set_theme, settle

    from app.context import AppContext
    from app.core.paths import AppPaths
    from ui.shell.main_window import MainWindow

    ctx = AppContext.create(AppPaths.from_environment())  # this machine's devices
    corpus = prepare_used(ctx, home) if profile == "used" else {}
    window = MainWindow(ctx)
    window.show()  # at the size the window chooses for this screen
    settle()
    screen = QGuiApplication.primaryScreen().availableGeometry()
    if profile == "used":
        fill_used(window, corpus)
    try:
        for theme in themes:
            set_theme(window, theme)
            for stop, widget in stops(profile, window):
                settle()
                problems = cut_controls(widget, screen.width(), screen.height())
                yield theme, stop, widget.grab(), problems
    finally:
        window.close()


def prepare_used(ctx: AppContext, home: Path) -> dict[str, list[Path]]:
    """A used profile's files: the embedder in the bundled model's place (as after set-up) and
    the documents to index."""
    from render_screenshots import find_embedder, write_corpus

    from app.models.bundled import default_embedder_dir

    bundled = default_embedder_dir(ctx.paths)
    bundled.parent.mkdir(parents=True, exist_ok=True)
    bundled.symlink_to(find_embedder(ctx.paths), target_is_directory=True)
    return write_corpus(home / "Documents")


def fill_used(window: MainWindow, corpus: dict[str, list[Path]]) -> None:
    """The real model loaded and answering, a collection searched, a grounded answer."""
    from render_screenshots import (
        GROUNDED_QUESTION,
        GROUNDED_SETTINGS,
        ask_in_window,
        load_in_window,
        real_chat_model,
        wait_until,
    )

    from ui.knowledge import KnowledgePanel

    panel = window.chat_panel
    load_in_window(panel, real_chat_model())
    ask_in_window(panel, QUESTION)
    window.show_panel("Knowledge")
    knowledge = window.panels["Knowledge"]
    assert isinstance(knowledge, KnowledgePanel)
    wait_until(lambda: knowledge.ready, "the database to start")
    for name, files in corpus.items():
        knowledge.collections.name_edit.setText(name)
        knowledge.collections.new_button.click()

        def is_current(wanted: str = name) -> bool:
            return knowledge.collections.current_name() == wanted

        wait_until(is_current, f"“{name}”")
        wait_until(lambda: not window.tasks.busy, "the collection list")
        knowledge.documents.add_paths(files)
        wait_until(lambda: not knowledge.documents.busy, f"the ingest into “{name}”")
        wait_until(lambda: not window.tasks.busy, "the document list")
    knowledge.search.query.setText("How do I connect to the VPN from home?")
    knowledge.search.search_button.click()
    wait_until(lambda: knowledge.search.results.count() > 0, "search results")
    window.show_panel("Chat")
    panel.new_conversation()
    conversation = window.ctx.chat.set_knowledge(panel.current_conversation_id(), "Recipes")
    panel.knowledge.show_conversation(conversation)
    ask_in_window(panel, GROUNDED_QUESTION, GROUNDED_SETTINGS)
    wait_until(lambda: not window.tasks.busy, "the window to settle")


def stops(profile: str, window: MainWindow) -> Iterator[tuple[str, QWidget]]:
    """Each stop of the walk as (name, the widget to picture), the stop shown first."""
    for name in window.panels:
        window.show_panel(name)
        yield f"panel-{name.lower()}", window
    window.show_panel("Chat")
    if profile == "used":
        window.menus.overlay_action.setChecked(True)
        yield "chat-performance-overlay", window
        window.menus.overlay_action.setChecked(False)
        picker = window.chat_panel.model_picker
        picker.button.open_menu()  # Ctrl+L
        yield "chat-model-menu", picker.menu
        picker.menu.close()
        return
    for name, open_dialog in dialogs(window).items():
        dialog = open_dialog()
        yield f"dialog-{name}", dialog
        dialog.close()


def dialogs(window: MainWindow) -> dict[str, Callable[[], QWidget]]:
    """The window's dialogs, each opened as its menu item or button opens it."""

    def remote_endpoints() -> QWidget:
        picker = window.chat_panel.model_picker
        picker.menu.remote_action.trigger()
        assert picker.remote_dialog is not None
        return picker.remote_dialog

    return {
        "models": window.open_models,
        "server": window.open_server_settings,
        "tool-servers": window.open_tools,
        "remote-endpoints": remote_endpoints,
        "database": window.choose_database,
        "transcribe": window.open_transcribe,
        "about": window.about,
    }


def cut_controls(widget: QWidget, screen_width: int, screen_height: int) -> list[str]:
    """What the picture of ``widget`` may cut: the window larger than the screen, or a visible
    control lying partly outside its window."""
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QLineEdit, QWidget

    problems = []
    if widget.width() > screen_width or widget.height() > screen_height:
        problems.append(
            f"{type(widget).__name__} is {widget.width()}×{widget.height()} "
            f"on a {screen_width}×{screen_height} screen"
        )
    inside = QRect(QPoint(0, 0), widget.size())
    for control in widget.findChildren(QWidget):
        if not isinstance(control, QAbstractButton | QComboBox | QLabel | QLineEdit):
            continue
        if not control.isVisibleTo(widget) or control.width() <= 0:
            continue
        where = QRect(control.mapTo(widget, QPoint(0, 0)), control.size())
        if not inside.contains(where) and not _clipped_on_purpose(control):
            what = getattr(control, "text", lambda: "")() or control.objectName()
            problems.append(f"{type(control).__name__} {what!r} at {rect_text(where)}")
    return problems


def _clipped_on_purpose(control: QWidget) -> bool:
    """A control inside a scroll area is meant to be scrolled to, not cut."""
    from PySide6.QtWidgets import QAbstractScrollArea

    parent = control.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def rect_text(rect: QRect) -> str:
    """A rectangle as x,y W×H."""
    return f"{rect.x()},{rect.y()} {rect.width()}×{rect.height()}"


# ----- the index page -----------------------------------------------------------------------


def write_index(out: Path) -> Path:
    """``out/index.html``: one row per stop, one column per language × theme × size."""

    def order(run: Path) -> tuple[str, str, int]:  # language, theme, the largest screen first
        theme, _, size = run.name.partition("-")
        return run.parent.name, theme, -parse_size(size)[0]

    runs = sorted((folder for folder in out.glob("*/*") if folder.is_dir()), key=order)
    names = sorted({png.stem for run in runs for png in run.glob("*.png")})
    head = "".join(f"<th>{html.escape(f'{r.parent.name} {r.name}')}</th>" for r in runs)
    rows = []
    for name in names:
        cells = []
        for run in runs:
            picture = run / f"{name}.png"
            link = picture.relative_to(out).as_posix()
            cells.append(
                f'<td><a href="{link}"><img src="{link}" width="240"></a></td>'
                if picture.is_file()
                else "<td></td>"
            )
        rows.append(f"<tr><th>{html.escape(name)}</th>{''.join(cells)}</tr>")
    page = out / "index.html"
    page.write_text(
        "<!doctype html><meta charset=utf-8><title>OV Studio walk</title>"
        "<style>body{font-family:sans-serif}td,th{vertical-align:top;padding:4px}</style>"
        f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>",
        encoding="utf-8",
    )
    return page


if __name__ == "__main__":
    sys.exit(main())
