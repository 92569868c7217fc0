"""Render docs/screenshots/remote-endpoint.png: the *Remote endpoints…* dialog, not staged.

The app's own server (the real ServerRunner, loopback, its bearer token) serves the real
SmolLM2-135M-Instruct GGUF of the test fixtures; the dialog lists it beside a team OVMS entry,
its *Test connection* really asks the server, and the model list is the server's answer.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("OV_STUDIO_SECRETS", "file")  # never the user's keyring
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere
sys.path.insert(0, str(ROOT / "scripts"))
OUT = ROOT / "docs" / "screenshots"
SIZE = (760, 440)


def main() -> int:
    """Serve the model, open the dialog, test the connection, save the PNG; the exit code."""
    from PySide6.QtWidgets import QApplication
    from render_screenshots import real_chat_model

    from app.context import AppContext
    from app.core.paths import AppPaths
    from app.core.remote_endpoints import RemoteEndpoint
    from app.core.storage.secrets import SecretStore
    from app.engines.remote.config import save_key
    from app.knowledge.service import SECRETS_FILE
    from app.server.build import build_server
    from app.server.runner import ServerRunner
    from ui.engines.remote_dialog import RemoteEndpointsDialog
    from ui.shell.launcher import create_application
    from ui.tasks import TaskRunner

    app = create_application()
    model = real_chat_model()
    home = Path(tempfile.mkdtemp(prefix="ov-studio-remote-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    try:
        with AppContext.create(AppPaths.from_environment()) as ctx:
            server_app, state = build_server(ctx, model)
            runner = ServerRunner(server_app, "127.0.0.1", 0)
            address = runner.start()
            try:
                state.served.engine_for(state.served.resolve(None))
                store = ctx.settings_store
                store.update(
                    remote_endpoints=[
                        RemoteEndpoint(
                            name="Team OVMS", base_url="http://ovms.lan:8000/v3", model="qwen3-8b"
                        ),
                        RemoteEndpoint(name="This computer", base_url=f"{address.url}/v1"),
                    ]
                )
                secrets = SecretStore(ctx.paths.config / SECRETS_FILE)
                save_key(secrets, "This computer", state.token)
                tasks = TaskRunner()
                dialog = RemoteEndpointsDialog(store, secrets, tasks)
                dialog.resize(*SIZE)
                dialog.show()
                dialog.list.setCurrentRow(1)
                dialog.test.button.click()
                deadline = time.monotonic() + 60
                while not dialog.test.result.text().startswith("Connected"):
                    if time.monotonic() > deadline:
                        raise SystemExit(f"the test did not end: {dialog.test.result.text()}")
                    app.processEvents()
                    time.sleep(0.02)
                app.processEvents()
                OUT.mkdir(parents=True, exist_ok=True)
                target = OUT / "remote-endpoint.png"
                dialog.grab().save(str(target))
                sys.stdout.write(f"{target}\n")
                dialog.reject()
                tasks.cancel_all_and_wait()
                QApplication.processEvents()
            finally:
                runner.stop()
                state.served.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
