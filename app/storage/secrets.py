"""Passwords kept out of the settings file: the OS keyring when one works, else a user-only file.

Windows Credential Manager, the macOS Keychain and the Secret Service are used through
``keyring``. Headless Linux sessions and locked-down machines have none, so the fallback is a
JSON file in the config folder created with mode 0600 (``mkstemp``) and replaced atomically —
on Windows the per-user AppData folder is already private to the user.

``OV_STUDIO_SECRETS=file`` forces the file (tests set it so they never touch a real keyring).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Protocol

from app.errors import StorageError
from app.storage.atomic import write_text_atomic

log = logging.getLogger(__name__)

SERVICE = "ov-studio"
BACKEND_ENV = "OV_STUDIO_SECRETS"


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
        return self._read_file().get(name)

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
                self._remove_from_file(name)
                return
        secrets = self._read_file()
        secrets[name] = value
        self._write_file(secrets)

    def delete(self, name: str) -> None:
        """Forget a secret wherever it is."""
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
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.warning("secrets file %s unreadable: %s", self.file, error)
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(key): str(value) for key, value in data.items()}

    def _write_file(self, secrets: dict[str, str]) -> None:
        try:
            write_text_atomic(self.file, json.dumps(secrets, indent=1))  # mkstemp: mode 0600
        except OSError as error:
            raise StorageError(
                f"Cannot store the password in {self.file}: {error.strerror or error}"
            ) from error


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
