"""Render the README pictures of the local server, offscreen, from a real run.

- ``server.png`` (1600×1000) and ``server-1024.png`` (1024×600): the main window with the
  *Server* switch on (port 8765, or a free one when 8765 is taken on this machine) and the
  performance overlay's Server rows after one real chat request — the official ``openai``
  client asks the real SmolLM2-135M (the Q4_1 GGUF of the test fixtures) through the server.
- ``server-settings.png``: *Server settings…* with "Allow other machines" ticked, so its
  warning shows (nothing is saved).

A fresh app home each time; the figures are this machine's.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
import threading
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from render_screenshots import OUT, real_chat_model, wait_until  # noqa: E402

SIZES = {"server": (1600, 1000), "server-1024": (1024, 600)}
DEFAULT_PORT = 8765


def free_default_port() -> int:
    """8765 when nothing listens there, else 0 (a free port: the picture is still real)."""
    with socket.socket() as probe:
        # As the server binds (SO_REUSEADDR): the previous picture's port in TIME_WAIT is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", DEFAULT_PORT))
        except OSError:
            return 0
    return DEFAULT_PORT


def ask(url: str, token: str, done: list[str]) -> None:
    """One chat request through the server, as another program makes it."""
    import openai

    client = openai.OpenAI(base_url=f"{url}/v1", api_key=token, max_retries=0)
    answer = client.chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "What is the capital of France?"}],
        max_tokens=32,
        temperature=0,
    )
    done.append(answer.choices[0].message.content or "")


def render(name: str, size: tuple[int, int], model: Path, with_dialog: bool) -> None:
    """One window at ``size``: server on, one request answered, overlay shown; saved."""
    from PySide6.QtWidgets import QApplication

    from app.context import AppContext
    from app.core.paths import AppPaths
    from ui.shell.main_window import MainWindow

    home = Path(tempfile.mkdtemp(prefix="ov-studio-server-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    try:
        paths = AppPaths.from_environment()
        paths.ensure()
        ctx = AppContext.create(paths)
        ctx.settings_store.update(server=ctx.settings.server.model_copy(update={"model": model}))
        window = MainWindow(ctx)
        window.resize(*size)
        window.show()
        switch = window.server_switch
        switch.start(free_default_port())
        wait_until(lambda: not switch.busy, "the server to start")
        address = switch.server.address
        if address is None:
            raise SystemExit(f"the server did not start: {switch.error.text()}")
        done: list[str] = []
        worker = threading.Thread(target=ask, args=(address.url, switch.server.token(), done))
        worker.start()
        wait_until(lambda: not worker.is_alive(), "the answer")
        if not done:
            raise SystemExit("the request through the server failed")
        window.menus.overlay_action.setChecked(True)
        wait_until(lambda: window.overlay.values["server_ttft"].text() != "–", "the overlay")
        save(window, name)
        if with_dialog:
            dialog = window.open_server_settings()
            dialog.allow_lan.setChecked(True)
            dialog.adjustSize()  # grown by the warning line, as on screen
            save(dialog, "server-settings")
            dialog.reject()
        window.close()
        app = QApplication.instance()
        assert app is not None
        app.processEvents()
    finally:
        shutil.rmtree(home, ignore_errors=True)


def save(widget: object, name: str) -> None:
    """Grab ``widget`` into docs/screenshots/``name``.png."""
    from PySide6.QtWidgets import QApplication, QWidget

    assert isinstance(widget, QWidget)
    app = QApplication.instance()
    assert app is not None
    app.processEvents()  # pending layouts and paints are done before the grab
    widget.grab().save(str(OUT / f"{name}.png"))
    sys.stdout.write(f"{OUT / name}.png\n")


def main() -> int:
    """Render the three pictures; returns the exit code."""
    from ui.shell.launcher import create_application

    create_application()
    OUT.mkdir(parents=True, exist_ok=True)
    model = real_chat_model()
    for index, (name, size) in enumerate(SIZES.items()):
        render(name, size, model, with_dialog=index == 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
