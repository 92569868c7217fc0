"""Conversation storage with the real tiny LLaVA: a killed image copy leaves no half file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.chat.storage import ConversationStore
from tests.waiting import wait_until

pytestmark = pytest.mark.integration


def test_a_killed_image_copy_leaves_no_half_file(tmp_path: Path) -> None:
    # A child process writes a large copy through the store and is killed mid-write: only
    # whole files may ever appear under a final name.
    store_dir = tmp_path / "conversations"
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from app.chat.storage import ConversationStore
        store = ConversationStore(Path({str(store_dir)!r}))
        payload = b"x" * (64 << 20)
        print("writing", flush=True)
        while True:
            store.add_image("{"a" * 32}", payload)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env)
    assert child.stdout is not None and child.stdout.readline().strip() == b"writing"
    folder = store_dir / ("a" * 32)
    wait_until(lambda: any(folder.glob(".ov-studio-tmp-*")), "a temp file")
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    for path in folder.glob("*.png"):
        assert path.stat().st_size == 64 << 20  # whole, never half
    # A later write through the store clears the dead process's temp file.
    ConversationStore(store_dir).add_image("a" * 32, b"png")
    assert not any(folder.glob(".ov-studio-tmp-*"))
