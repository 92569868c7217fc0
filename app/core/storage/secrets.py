"""Passwords kept out of the settings file: the OS keyring when one works, else a user-only file.

Windows Credential Manager, the macOS Keychain and the Secret Service are used through
``keyring``. Headless Linux sessions and locked-down machines have none, so the fallback is a
JSON file in the config folder created with mode 0600 (``mkstemp``) and replaced atomically —
on Windows the per-user AppData folder is already private to the user.

``OV_STUDIO_SECRETS=file`` forces the file (tests set it so they never touch a real keyring).

The file is never overwritten with less than it held: one that cannot be read (no permission)
makes a change fail, and a damaged one (not JSON, not an object of texts) is renamed aside as
``secrets.json.damaged-<time>`` (0600, the bytes untouched, so passwords and keys can still be
recovered by hand) before anything new is written, and :attr:`SecretStore.problems` says so.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Protocol

from app.core.errors import StorageError
from app.core.storage.atomic import tighten, write_text_atomic
from app.core.storage.json_files import Damaged, parse_json_object
from app.core.texts import tr

log = logging.getLogger(__name__)

SERVICE = "ov-studio"
BACKEND_ENV = "OV_STUDIO_SECRETS"
MAX_FILE_BYTES = 4 * 1024 * 1024
"""A secrets file is a few hundred bytes; a bigger one is damage (set aside whole)."""


class _Keyring(Protocol):
    def get_password(self, service: str, username: str) -> str | None: ...
    def set_password(self, service: str, username: str, password: str) -> None: ...
    def delete_password(self, service: str, username: str) -> None: ...


class SecretStore:
    """Get, set and delete named secrets."""

    def __init__(self, file: Path, *, use_keyring: bool | None = None) -> None:
        self.file = file
        if use_keyring is None:
            use_keyring = os.environ.get(BACKEND_ENV, "auto").lower() != "file"
        self._keyring = _usable_keyring() if use_keyring else None
        self.problems: list[str] = []
        """Sentences about a secrets file that had to be set aside (each said once)."""

    def check_file(self) -> list[str]:
        """Read the file once (setting a damaged one aside); what the user should be told."""
        try:
            self._read_file()
        except StorageError as error:
            log.info("%s", error)
            self._note(str(error))
        return list(self.problems)

    @property
    def backend(self) -> str:
        """Where secrets go: the keyring's name, or ``file``."""
        return "file" if self._keyring is None else type(self._keyring).__name__

    def get(self, name: str) -> str | None:
        """The secret called ``name``, or None."""
        if self._keyring is not None:
            try:
                value = self._keyring.get_password(SERVICE, name)
            except Exception as error:  # noqa: BLE001 - any keyring failure: the file
                log.warning("keyring read failed (%s); using the secrets file", error)
            else:
                if value is not None:
                    return str(value)
        try:
            return self._read_file().get(name)
        except StorageError as error:  # unreadable: as if absent, and said
            log.warning("%s", error)
            return None

    def set(self, name: str, value: str) -> None:
        """Store a secret (replacing an older one).

        Raises:
            StorageError: neither the keyring nor the secrets file could take it.
        """
        if self._keyring is not None:
            try:
                self._keyring.set_password(SERVICE, name, value)
            except Exception as error:  # noqa: BLE001 - any keyring failure: the file
                log.warning("keyring write failed (%s); using the secrets file", error)
            else:
                try:
                    self._remove_from_file(name)  # an older copy there would be stale
                except StorageError as error:  # kept in the keyring, which is read first
                    log.warning("%s", error)
                return
        secrets = self._read_file()
        secrets[name] = value
        self._write_file(secrets)

    def delete(self, name: str) -> None:
        """Forget a secret wherever it is.

        Raises:
            StorageError: the secrets file cannot be read or written.
        """
        if self._keyring is not None:
            try:
                self._keyring.delete_password(SERVICE, name)
            except Exception as error:  # noqa: BLE001 - absent or failing
                log.debug("keyring delete of %s: %s", name, error)
        self._remove_from_file(name)

    def _remove_from_file(self, name: str) -> None:
        secrets = self._read_file()
        if name in secrets:
            del secrets[name]
            self._write_file(secrets)

    def _read_file(self) -> dict[str, str]:
        """The secrets in the file ({} when there is none, or it was damaged and set aside).

        Raises:
            StorageError: the file is there but cannot be read, or is damaged and cannot be
                moved aside: a write would lose what it holds.
        """
        for _attempt in range(3):  # another process may repair it while it is read
            try:
                with self.file.open("rb") as handle:
                    raw = handle.read(MAX_FILE_BYTES + 1)
                    read = os.fstat(handle.fileno())
            except FileNotFoundError:
                return {}
            except OSError as error:
                raise StorageError(
                    tr("Could not read the secrets file {file}: {reason}").format(
                        file=self.file, reason=error.strerror or error
                    )
                ) from error
            too_large = Damaged(f"larger than {MAX_FILE_BYTES // 1024 // 1024} MB")
            data = too_large if len(raw) > MAX_FILE_BYTES else parse_json_object(raw)
            if isinstance(data, Damaged):
                reason = data.reason
            elif not all(isinstance(value, str) for value in data.values()):
                reason = "some of its values are not text"
            else:
                return dict(data)
            if self._set_aside(read, reason):
                return {}
        raise StorageError(
            tr("The secrets file {file} keeps changing; try again.").format(file=self.file)
        )

    def _set_aside(self, read: os.stat_result, reason: str) -> bool:
        """Rename the damaged file aside, private to the user; False when the file at the path
        is no longer the one that was read (another process repaired it meanwhile).

        Raises:
            StorageError: it could not be moved (then nothing may be written over it).
        """
        aside = _free_name(self.file, time.strftime("%Y%m%d-%H%M%S"))
        try:
            now = self.file.stat()
            if (now.st_ino, now.st_dev, now.st_mtime_ns) != (
                read.st_ino,
                read.st_dev,
                read.st_mtime_ns,
            ):
                return False
            self.file.rename(aside)
        except FileNotFoundError:
            return False
        except OSError as error:
            raise StorageError(
                tr(
                    "The secrets file {file} is damaged ({reason}) and could not be moved aside "
                    "({error}): saved passwords and keys cannot be changed until it is "
                    "repaired or deleted."
                ).format(file=self.file, reason=reason, error=error.strerror or error)
            ) from error
        tighten(aside)  # a hand-edited copy may have been 0644: it holds passwords
        log.info("secrets file %s was %s; set aside as %s", self.file, reason, aside)
        self._note(
            f"The secrets file was damaged ({reason}) and was set aside as {aside}: saved "
            "passwords, API keys and the server token in it are no longer used."
        )
        return True

    def _note(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def _write_file(self, secrets: dict[str, str]) -> None:
        try:
            write_text_atomic(self.file, json.dumps(secrets, indent=1))  # mkstemp: mode 0600
        except OSError as error:
            raise StorageError(
                tr("Cannot store the password in {file}: {reason}").format(
                    file=self.file, reason=error.strerror or error
                )
            ) from error


def _free_name(file: Path, stamp: str) -> Path:
    """``<file>.damaged-<stamp>``, numbered when that name is taken (two in one second)."""
    candidate, number = file.with_name(f"{file.name}.damaged-{stamp}"), 2
    while candidate.exists() or candidate.is_symlink():
        candidate = file.with_name(f"{file.name}.damaged-{stamp}-{number}")
        number += 1
    return candidate


def _usable_keyring() -> _Keyring | None:
    """The system keyring when a real one is available (not the fail/null/chainer stand-ins)."""
    try:
        import keyring
        from keyring.backends import chainer, fail
    except ImportError:
        return None
    try:
        backend = keyring.get_keyring()
    except Exception as error:  # noqa: BLE001 - broken set-up = no keyring
        log.info("no usable keyring: %s", error)
        return None
    if isinstance(backend, fail.Keyring) or type(backend).__module__.endswith(".null"):
        return None
    if isinstance(backend, chainer.ChainerBackend) and not backend.backends:
        return None
    found: _Keyring = backend
    return found
