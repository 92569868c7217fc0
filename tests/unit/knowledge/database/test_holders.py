"""The list of processes holding the embedded server: it survives damage and forgets the dead."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app.knowledge.database.holders import (
    Holder,
    add_holder,
    live_holders,
    read_holders,
    remove_holder,
    this_process_holder,
)


def test_holders_survive_damage_and_prune_the_dead(tmp_path: Path) -> None:
    path = tmp_path / "holders.json"
    for damage in (b"", b"{not json", b"\x00\xff", b'{"a": 1}', b"[1, 2, 3]"):
        path.write_bytes(damage)
        assert read_holders(path) == []
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    me = this_process_holder("mine")
    reused = Holder(os.getpid(), me.started - 3600, "reused pid")  # same PID, older process
    entries = [
        {"pid": int(dead.stdout), "started": 1.0, "token": "dead"},
        {"pid": reused.pid, "started": reused.started, "token": reused.token},
        {"pid": -5, "started": 1.0, "token": "negative"},
        {"garbage": True},
        {"pid": me.pid, "started": me.started, "token": me.token},
    ]
    path.write_text(json.dumps(entries))
    assert live_holders(path) == [me]
    other = this_process_holder("second handle")
    assert add_holder(path, other) == [me]
    assert remove_holder(path, "mine") == [other]  # the server stays up for it
    assert remove_holder(path, "second handle") == []
    assert json.loads(path.read_text()) == []
