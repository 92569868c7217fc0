"""The embedded server's start lock excludes another process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.knowledge.database.lock import interprocess_lock


def test_the_start_lock_excludes_another_process(tmp_path: Path) -> None:
    lock = tmp_path / ".pg.lock"
    script = (
        "import sys; from pathlib import Path\n"
        "from app.knowledge.database.lock import interprocess_lock\n"
        "from app.core.errors import DatabaseError\n"
        "try:\n"
        f"    with interprocess_lock(Path({str(lock)!r}), 0.3): print('got it')\n"
        "except DatabaseError as error: print(error)\n"
    )
    root = Path(__file__).parents[4]
    with interprocess_lock(lock, 1):
        held = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, cwd=root, check=True
        )
    assert "kept the database busy" in held.stdout
    free = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=root, check=True
    )
    assert free.stdout.strip() == "got it"
