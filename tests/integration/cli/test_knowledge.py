"""``ingest`` and ``search`` as a user runs them: the embedded database, a killed ingest resumed,
Ctrl+C after whole documents, why an ingest stopped on its own line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from app.cli import exits
from app.cli.progress import STOPPING
from app.core.paths import AppPaths
from app.knowledge.ingest_report import supported_types
from tests.app_process import interrupt_app, models_env, run_app
from tests.integration.knowledge.test_ingest_failures import _documents
from tests.integration.knowledge.test_service import corpus
from tests.waiting import wait_until

__all__ = ["corpus"]  # fixtures, imported for the tests below


pytestmark = pytest.mark.integration


def test_the_command_line_says_on_its_own_line_why_an_ingest_stopped(
    app_home: AppPaths, fresh_db: str, embedding_model_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for index in range(30):  # about ten chunks each: the ingest runs for seconds
        words = " ".join(f"Topic {index} sentence {n} about trams and bridges." for n in range(200))
        (folder / f"doc{index:02}.txt").write_text(words)
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__EMBEDDING__FOLDER": str(embedding_model_dir),
        "OV_STUDIO_DATABASE_URL": fresh_db,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "ingest", str(folder), "--collection", "Many"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        wait_until(lambda: _documents(fresh_db) != [] or process.poll() is not None, "a document")
        with psycopg.connect(fresh_db, autocommit=True) as connection:  # another window
            connection.execute("DELETE FROM collections WHERE name = 'Many'")
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert (process.returncode, out) == (2, ""), err
    assert err.endswith(
        "\nerror: The collection “Many” was deleted while documents were being added to it.\n"
    )
    assert "Traceback" not in err


def test_cli_ingest_and_search_on_the_embedded_database(
    app_home: AppPaths, embedding_model_dir: Path, corpus: Path
) -> None:
    env = models_env(embedding=embedding_model_dir)
    ingested = run_app(["ingest", str(corpus), "--collection", "Docs", "--json"], app_home, env)
    assert ingested.returncode == 1, ingested.stderr  # the corpus holds three bad files
    assert "EOF marker" not in ingested.stderr  # library chatter stays in the log file
    report = json.loads(ingested.stdout)
    assert len(report["added"]) == 5 and len(report["failed"]) == 3
    found = run_app(
        ["search", "baking bread", "--collection", "Docs", "--k", "2", "--json"], app_home, env
    )
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert Path(hits[0]["path"]).name == "guide.pdf" and hits[0]["page"] == 2
    assert set(hits[0]) == {"path", "page", "lines", "score", "relevance", "text"}
    assert hits[0]["lines"] is None  # a PDF's passage is cited by its page
    assert 0 < hits[0]["relevance"] <= 1
    missing = run_app(["search", "x", "--collection", "Nope"], app_home, env)
    assert missing.returncode == 2
    assert "no collection named" in missing.stderr and "Traceback" not in missing.stderr
    nothing = run_app(["ingest", "/no/such/folder", "--collection", "D"], app_home, env)
    assert (nothing.returncode, nothing.stderr) == (2, "error: /no/such/folder does not exist.\n")
    empty = corpus.parent / "empty"
    empty.mkdir()
    (empty / "photo.heic").write_bytes(b"\x00\x00\x00\x18ftypheic")  # no decoder
    no_text = run_app(["ingest", str(empty), "--collection", "E"], app_home, env)
    assert (no_text.returncode, no_text.stdout) == (2, "")
    assert no_text.stderr == (
        f"error: Nothing to add: the folder {empty} has no {supported_types()} files (hidden "
        "files and folders are skipped).\n"
    )
    assert "RuntimeDirWarning" not in no_text.stderr
    listed = run_app(["collections", "--json"], app_home, env)
    assert [c["name"] for c in json.loads(listed.stdout)] == ["Docs"]  # no "D", no "E"
    assert not (app_home.data / "postgres" / "postmaster.pid").exists()  # server stopped


def test_killed_ingest_leaves_whole_documents_and_resumes(
    app_home: AppPaths, embedding_model_dir: Path, tmp_path: Path
) -> None:
    import signal
    import time

    import psycopg

    corpus = _many_documents(tmp_path)
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__EMBEDDING__FOLDER": str(embedding_model_dir),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "ingest", str(corpus), "--collection", "Many"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pgdata = app_home.data / "postgres"
    uri = f"postgresql://postgres:@/postgres?host={pgdata}"
    stored = 0
    deadline = time.monotonic() + 120
    try:
        while stored < 3 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)  # polling a subprocess's database, not waiting on our own code
            try:
                with psycopg.connect(uri, connect_timeout=2) as connection:
                    stored = connection.execute("SELECT count(*) FROM documents").fetchone()[0]
            except psycopg.Error:
                continue  # the server or the schema is not up yet
        assert process.poll() is None, "the ingest finished before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        with psycopg.connect(uri) as connection:
            rows = connection.execute(
                """SELECT d.path, d.chunks, count(c.id) FROM documents d
                   LEFT JOIN chunks c ON c.document_id = d.id GROUP BY d.id"""
            ).fetchall()
        assert 3 <= len(rows) < 30
        assert all(declared == actual > 0 for _, declared, actual in rows)  # whole documents
    finally:
        if process.poll() is None:
            process.kill()
    resumed = run_app(["ingest", str(corpus), "--collection", "Many", "--json"], app_home, env)
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    assert len(report["skipped"]) >= len(rows)  # what was stored is not redone
    assert len(report["skipped"]) + len(report["added"]) == 30
    assert not (app_home.data / "postgres" / "postmaster.pid").exists()  # orphan stopped too


def test_ctrl_c_stops_an_ingest_after_whole_documents_and_exits_1(
    app_home: AppPaths, embedding_model_dir: Path, tmp_path: Path
) -> None:
    corpus = _many_documents(tmp_path)
    env = models_env(embedding=embedding_model_dir)
    args = ["ingest", str(corpus), "--collection", "Many", "--json"]
    stopped = interrupt_app(args, app_home, env, once="1/30 files")
    assert stopped.returncode == exits.PARTIAL, stopped.stderr
    report = json.loads(stopped.stdout)
    assert report["cancelled"] and 1 <= len(report["added"]) < 30
    assert STOPPING in stopped.stderr and "Traceback" not in stopped.stderr
    resumed = run_app(args, app_home, env)
    assert resumed.returncode == exits.OK, resumed.stderr
    assert len(json.loads(resumed.stdout)["added"]) == 30 - len(report["added"])


def _many_documents(tmp_path: Path) -> Path:
    """30 documents of about ten chunks each: an ingest of them runs for seconds."""
    corpus = tmp_path / "many"
    corpus.mkdir()
    for index in range(30):
        words = " ".join(f"Topic {index} sentence {n} about trams and bridges." for n in range(200))
        (corpus / f"doc{index:02}.txt").write_text(words, encoding="utf-8")
    return corpus
