"""Where the embedded server's socket goes: its own data folder when short and private, else a
private runtime folder; hostile folders refused. On real folders, without a server."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.errors import DatabaseError
from app.knowledge.database.socket_folder import (
    MAX_SOCKET_PATH_BYTES,
    choose_socket_dir,
    fits,
    is_private,
)

ME = os.geteuid() if os.name != "nt" else -1
unix_only = pytest.mark.skipif(os.name == "nt", reason="Unix sockets and modes")
root_only = pytest.mark.skipif(os.name == "nt" or os.geteuid() != 0, reason="needs root")


@pytest.fixture
def short_folder() -> Iterator[Path]:
    """A private folder with a short path: a runtime folder must leave room for the socket's
    name (108 bytes in all), and pytest's own temporary folders are longer on some runs
    (under pytest-xdist, a deep TMPDIR)."""
    folder = Path(tempfile.mkdtemp(prefix="ovs-", dir="/tmp" if os.name != "nt" else None))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@unix_only
def test_a_short_data_folder_holds_its_own_socket(short_folder: Path) -> None:
    assert (
        choose_socket_dir(short_folder, ME, os.getegid(), separate=False, environ={})
        == short_folder
    )


@unix_only
def test_a_data_folder_opened_to_its_group_does_not_hold_the_socket(tmp_path: Path) -> None:
    cluster = tmp_path / "pg"
    cluster.mkdir()
    cluster.chmod(0o750)  # PostgreSQL accepts it: the group could reach a socket inside
    folder = choose_socket_dir(cluster, ME, os.getegid(), separate=False, environ={})
    try:
        assert folder != cluster and is_private(folder, ME)
    finally:
        folder.rmdir()


@unix_only
def test_a_long_data_folder_gets_a_private_runtime_folder(short_folder: Path) -> None:
    runtime = short_folder / "run"
    runtime.mkdir(mode=0o700)
    cluster = Path("/" + "d" * 120)
    assert not fits(cluster)
    folder = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
    )
    assert folder.parent == runtime and is_private(folder, ME) and fits(folder)
    again = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
    )
    assert again == folder  # the same folder for the same data folder


@unix_only
def test_an_untrusted_runtime_folder_is_passed_over_for_a_new_temp_folder(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    cluster = Path("/" + "d" * 120)
    folder = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(shared)}
    )
    try:
        assert folder.parent != shared and is_private(folder, ME)
        assert len(os.fsencode(folder / ".s.PGSQL.5432")) <= MAX_SOCKET_PATH_BYTES
    finally:
        folder.rmdir()


@unix_only
@pytest.mark.parametrize("hostile", ["open to all", "a link", "another user's"])
def test_a_hostile_socket_folder_is_refused_not_used(short_folder: Path, hostile: str) -> None:
    runtime = short_folder / "run"
    runtime.mkdir(mode=0o700)
    cluster = Path("/" + "d" * 120)
    first = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
    )
    first.rmdir()
    if hostile == "open to all":
        first.mkdir()
        first.chmod(0o777)
    elif hostile == "a link":
        elsewhere = short_folder / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        first.symlink_to(elsewhere)
    else:
        if ME != 0:
            pytest.skip("only root can make a folder another user owns")
        first.mkdir(mode=0o700)
        os.chown(first, 65534, 65534)
    with pytest.raises(DatabaseError, match="belongs to another user or is open to others"):
        choose_socket_dir(
            cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
        )


@root_only
def test_as_root_the_socket_folder_is_given_to_the_service_account() -> None:
    cluster = Path("/" + "d" * 120)
    folder = choose_socket_dir(cluster, 65534, 65534, separate=True, environ={})
    try:
        assert is_private(folder, 65534) and folder.stat().st_gid == 65534
    finally:
        folder.rmdir()
