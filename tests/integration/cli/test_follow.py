"""``follow``, ``unfollow`` and ``sync`` as a user runs them: one line and exit 2 for a folder
that cannot be followed; a sync killed with SIGKILL and run again loses nothing it stored and
indexes nothing twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from app.cli import exits
from app.core.paths import AppPaths
from tests.app_process import run_app
from tests.waiting import wait_until

pytestmark = pytest.mark.integration


@pytest.fixture
def env(app_home: AppPaths, fresh_db: str, embedding_model_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__EMBEDDING__FOLDER": str(embedding_model_dir),
        "OV_STUDIO_DATABASE_URL": fresh_db,
    }


def _rows(uri: str) -> list[tuple[int, str, int, int]]:
    """(id, path, chunks declared, chunks stored) of every document."""
    with psycopg.connect(uri) as connection:
        rows = connection.execute(
            """SELECT d.id, d.path, d.chunks, count(c.id) FROM documents d
               LEFT JOIN chunks c ON c.document_id = d.id GROUP BY d.id ORDER BY d.path"""
        ).fetchall()
    return [(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]


def test_follow_refuses_what_cannot_be_followed_in_one_line(
    app_home: AppPaths, env: dict[str, str], tmp_path: Path
) -> None:
    """The rest of what is refused is in tests/integration/knowledge/test_folder_sync.py."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("Something to index.", "utf-8")
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop")
    created = run_app(["ingest", str(folder), "--collection", "Notes"], app_home, env)
    assert created.returncode == exits.OK, created.stderr
    for sentence, path in {"loop of links": loop, "app's own folders": app_home.data}.items():
        result = run_app(["follow", str(path), "--collection", "Notes"], app_home, env)
        assert result.returncode == exits.USAGE, (sentence, result.stderr)
        assert sentence in result.stderr and len(result.stderr.strip().splitlines()) == 1
    followed = run_app(["follow", str(folder), "--collection", "Notes"], app_home, env)
    assert followed.returncode == exits.OK, followed.stderr
    listed = run_app(["sync", "--list", "--collection", "Notes"], app_home, env)
    assert listed.stdout.splitlines() == [str(folder.resolve())]


def test_a_sync_killed_midway_resumes_without_losing_or_repeating_a_document(
    app_home: AppPaths, env: dict[str, str], fresh_db: str, tmp_path: Path
) -> None:
    corpus = tmp_path / "many"
    corpus.mkdir()
    for index in range(30):  # about ten chunks each: the sync runs for seconds
        words = " ".join(f"Topic {index} sentence {n} about trams and bridges." for n in range(200))
        (corpus / f"doc{index:02}.txt").write_text(words, encoding="utf-8")
    first = run_app(["ingest", str(corpus / "doc00.txt"), "--collection", "Many"], app_home, env)
    assert first.returncode == exits.OK, first.stderr
    assert run_app(["follow", str(corpus), "--collection", "Many"], app_home, env).returncode == 0
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "sync", "--collection", "Many"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: len(_rows(fresh_db)) >= 4 or process.poll() is not None, "documents")
        assert process.poll() is None, "the sync finished before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
    before = _rows(fresh_db)
    assert 4 <= len(before) < 30
    assert all(declared == stored > 0 for _, _, declared, stored in before)  # whole documents

    resumed = run_app(["sync", "--collection", "Many", "--json"], app_home, env)
    assert resumed.returncode == exits.OK, resumed.stderr
    indexed = json.loads(resumed.stdout)[0]["indexed"]
    after = _rows(fresh_db)
    assert len(after) == 30 and len({path for _, path, _, _ in after}) == 30
    assert all(declared == stored > 0 for _, _, declared, stored in after)
    kept = {path: doc_id for doc_id, path, _, _ in before}
    assert {path: doc_id for doc_id, path, _, _ in after if path in kept} == kept  # not redone
    assert len(indexed) == 30 - len(before)  # each file indexed once across both runs
