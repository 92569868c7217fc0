"""The secret store: private, damaged files set aside whole (and said at start), an unreadable one
never written over."""

from __future__ import annotations

import json
import signal
import stat
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import StorageError
from app.core.paths import AppPaths
from app.core.storage.secrets import SecretStore
from tests.app_process import RunningApp


def test_file_store_is_private_and_round_trips(tmp_path: Path) -> None:
    store = SecretStore(tmp_path / "secrets.json", use_keyring=False)
    assert store.backend == "file" and store.get("a") is None
    store.set("a", "s3cret")
    store.set("b", "other")
    assert (store.get("a"), store.get("b")) == ("s3cret", "other")
    assert stat.S_IMODE((tmp_path / "secrets.json").stat().st_mode) == 0o600
    store.delete("a")
    assert store.get("a") is None and store.get("b") == "other"


DAMAGED_SECRETS = {
    "not JSON": b'{"database:ana@db/kb": "pw", broken',
    "UTF-16": json.dumps({"server-token": "t"}).encode("utf-16"),
    "a list": b'["pw"]',
    "values not text": b'{"server-token": "t", "endpoint:lab": {"key": "k"}}',
    "too large": b'{"a": "' + b"x" * (5 * 1024 * 1024) + b'"}',
}


@pytest.mark.parametrize("content", DAMAGED_SECRETS.values(), ids=DAMAGED_SECRETS.keys())
def test_a_damaged_secrets_file_is_set_aside_whole_before_a_write(
    tmp_path: Path, content: bytes
) -> None:
    file = tmp_path / "secrets.json"
    file.write_bytes(content)
    file.chmod(0o644)  # as an editor or a sync may leave it
    store = SecretStore(file, use_keyring=False)
    assert store.get("server-token") is None
    store.set("server-token", "new")
    [aside] = tmp_path.glob("secrets.json.damaged-*")
    assert aside.read_bytes() == content
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
    assert json.loads(file.read_text()) == {"server-token": "new"}
    [problem] = store.problems
    assert problem.startswith("The secrets file was damaged (")
    assert f"set aside as {aside}" in problem and "no longer used" in problem
    assert SecretStore(file, use_keyring=False).check_file() == []  # said once


def test_an_unreadable_secrets_file_is_never_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "secrets.json"
    file.write_text(json.dumps({"database:ana@db/kb": "pw"}))
    opened = Path.open

    def refused(path: Path, *args: object, **kwargs: object) -> object:
        if path == file:  # as for a file of another user, or one an antivirus holds
            raise PermissionError(13, "Permission denied", str(path))
        return opened(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", refused)
    store = SecretStore(file, use_keyring=False)
    assert store.get("database:ana@db/kb") is None
    with pytest.raises(StorageError, match=r"Could not read the secrets file .*Permission denied"):
        store.set("server-token", "new")
    with pytest.raises(StorageError, match="Could not read the secrets file"):
        store.delete("database:ana@db/kb")
    assert store.check_file() == [f"Could not read the secrets file {file}: Permission denied"]
    monkeypatch.undo()
    assert json.loads(file.read_text()) == {"database:ana@db/kb": "pw"}
    assert list(tmp_path.iterdir()) == [file]


def test_a_damaged_secrets_file_that_cannot_be_moved_is_kept_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "secrets.json"
    file.write_bytes(b"{broken")

    def refused(path: Path, target: Path) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(Path, "rename", refused)
    store = SecretStore(file, use_keyring=False)
    with pytest.raises(StorageError, match=r"is damaged .* could not be moved aside"):
        store.set("server-token", "new")
    assert file.read_bytes() == b"{broken"


def test_a_damaged_secrets_file_is_said_when_the_app_starts(tmp_path: Path) -> None:
    paths = AppPaths.from_environment({"OV_STUDIO_HOME": str(tmp_path)})
    paths.ensure()
    (paths.config / "secrets.json").write_bytes(b"\x00\x01")
    ctx = AppContext.create(paths, [DeviceInfo("CPU", "CPU")])
    try:
        assert any(n.startswith("The secrets file was damaged") for n in ctx.notices)
    finally:
        ctx.close()
    assert [p.name.split("-")[0] for p in paths.config.glob("secrets.json.*")] == [
        "secrets.json.damaged"
    ]


def test_serve_new_token_keeps_a_damaged_secrets_file_aside(app_home: AppPaths) -> None:
    damaged = b'{"database:ana@db/kb": "pw", "server-token": "old"'  # cut short
    (app_home.config / "secrets.json").write_bytes(damaged)
    with RunningApp(["serve", "--port", "0", "--new-token"], app_home) as app:
        printed = app.wait_for("Ctrl+C stops")
        _, _, err = app.stop(signal.SIGKILL)  # how it ends is not the point here
    [aside] = app_home.config.glob("secrets.json.damaged-*")
    assert aside.read_bytes() == damaged
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
    [said] = [line for line in err.splitlines() if "secrets file" in line]
    assert said.startswith("WARNING: The secrets file was damaged (not valid JSON")
    assert str(aside) in said
    token = json.loads((app_home.config / "secrets.json").read_text())["server-token"]
    assert f"token: {token}" in printed and token != "old"
