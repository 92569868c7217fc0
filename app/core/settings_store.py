"""The settings store: loads, repairs, changes and saves the user's :class:`Settings`.

Saved atomically as JSON in the user config folder. A broken file is never fatal: it is
backed up, the keys that fail validation are reset to their defaults, and a notice says so.
Every change goes through :meth:`SettingsStore.update`: checked first, saved whole, applied
to the one live :class:`Settings` object the services read, then announced to subscribers
(a plain callback list, so the core stays Qt-free; the UI may forward it to a signal).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError

from app.core.errors import StorageError, UserError
from app.core.settings import Settings, values_model
from app.core.settings_migration import DEFAULTS_VERSION, update_old_defaults
from app.core.storage.atomic import write_text_atomic
from app.core.storage.json_files import Damaged, parse_json_object
from app.core.storage.redaction import redacted_copy
from app.core.texts import tr

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 4 * 1024 * 1024
"""A settings file is a few KB; a bigger one is damage (its first 4 MB are kept aside)."""

Subscriber = Callable[[Mapping[str, Any]], None]
"""Called with ``{field: new value}`` of each saved change."""


@dataclass(frozen=True)
class LoadedSettings:
    """Settings plus a notice for the user when the file had to be repaired."""

    settings: Settings
    notice: str = ""


class SettingsStore:
    """The settings at one path: loaded once, changed only through :meth:`update`."""

    def __init__(self, path: Path, settings: Settings | None = None) -> None:
        self.path = path
        self.settings = settings if settings is not None else Settings()
        """The live settings: the same object for the app's whole run (services keep it)."""
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []

    @classmethod
    def open(cls, path: Path) -> tuple[SettingsStore, str]:
        """The store of the file at ``path``, loaded (repaired if need be), and the notice
        for the user ("" when the file was fine)."""
        store = cls(path)
        loaded = store.load()
        store.settings = loaded.settings
        return store, loaded.notice

    def update(self, **changes: Any) -> dict[str, Any]:
        """Change settings: validate, save the whole file atomically, apply, notify.

        Values are checked as the file's are (a ``str`` for a path is fine); a field whose
        value does not change is left out. Nothing changes and nobody is told when nothing
        differs.

        Returns:
            ``{field: new value}`` of what changed.

        Raises:
            UserError: an unknown field or a value it cannot take (one sentence, naming the
                field in ``field``); nothing is saved or changed.
            StorageError: the file could not be written; the old file and the live settings
                are unchanged.
        """
        with self._lock:
            changed = self._validated_changes(changes)
            if not changed:
                return {}
            self.save(self.settings.model_copy(update=changed))
            for name, value in changed.items():
                setattr(self.settings, name, value)
            subscribers = list(self._subscribers)
        for subscriber in subscribers:  # outside the lock: a subscriber may update again
            subscriber(dict(changed))
        return changed

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber`` after each saved change (in the thread that made it).

        Returns:
            A function that unsubscribes it.
        """
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def _validated_changes(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """The changed fields with their validated values.

        Raises:
            UserError: an unknown field or an invalid value.
        """
        fields = Settings.model_fields
        for name in changes:
            if name not in fields:
                raise UserError(
                    tr("There is no setting named “{name}”.").format(name=name), field=name
                )
        # All fields, not just the changed ones: validators may look at their neighbours.
        current = {name: getattr(self.settings, name) for name in fields}
        # A nested model made with ``model_copy(update=…)`` was never validated: check its
        # values, not the instance (pydantic would take an instance as it is).
        plain = {
            name: value.model_dump() if isinstance(value, BaseModel) else value
            for name, value in changes.items()
        }
        try:
            values = values_model().model_validate({**current, **plain})
        except ValidationError as error:
            issue = error.errors(include_input=False)[0]
            where = ".".join(str(part) for part in issue["loc"])
            reason = str(issue["msg"]).removeprefix("Value error, ")
            raise UserError(
                tr("The setting {where} cannot take that value: {reason}.").format(
                    where=where, reason=reason[:1].lower() + reason[1:]
                ),
                field=str(issue["loc"][0]),
            ) from None
        validated = {name: getattr(values, name) for name in changes}
        return {
            name: value
            for name, value in validated.items()
            if value != getattr(self.settings, name)
        }

    def load(self) -> LoadedSettings:
        """Read the settings file; a missing file gives defaults, a damaged one is repaired.

        Never raises for the file's content: whatever is in it (not UTF-8, not JSON, nested
        too deeply, wrong types), the app starts. The old file is kept beside it with its
        secrets removed, the repaired settings are saved (so the notice is given once), and
        the notice says where the copy is.
        """
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return LoadedSettings(Settings())
        except OSError as error:
            log.info("cannot read settings %s: %s", self.path, error)  # the notice says it
            return LoadedSettings(Settings(), f"Could not read settings ({error.strerror}).")
        too_large = Damaged(f"larger than {MAX_FILE_BYTES // 1024 // 1024} MB")
        data = too_large if len(raw) > MAX_FILE_BYTES else parse_json_object(raw)
        if isinstance(data, Damaged):
            backup = self._set_aside(raw, data.reason)
            settings = Settings()
            self._save_quietly(settings)
            return LoadedSettings(
                settings,
                f"The settings file was damaged and has been reset ({data.reason}). "
                f"A copy was kept at {backup}.",
            )
        # Underscore keys are pydantic-settings' own arguments (``_env_file``,
        # ``_cli_parse_args`` …), never settings: from a file they would steer the loader.
        data = {key: value for key, value in data.items() if not key.startswith("_")}
        updated, reset = update_old_defaults(data)
        settings, invalid = _validate_repairing(data)
        reset += invalid + _forget_unknown_endpoints(settings)
        if not reset:
            if updated:
                log.info("%s: settings version %d", self.path, DEFAULTS_VERSION)
                self._save_quietly(settings)  # once: the file now says which defaults it has
            return LoadedSettings(settings)
        backup = self._set_aside(raw, f"invalid {', '.join(reset)}")
        self._save_quietly(settings)
        return LoadedSettings(
            settings,
            f"Some settings were invalid and have been reset ({', '.join(reset)}). "
            f"A copy of the old file was kept at {backup}.",
        )

    def save(self, settings: Settings) -> None:
        """Write atomically (readable by the user only).

        Raises:
            StorageError: the config folder is not writable; the old file is unchanged.
        """
        try:
            text = settings.model_dump_json(indent=2)
        except PydanticSerializationError as error:  # a path whose name is not UTF-8
            raise StorageError(
                tr(
                    "Could not save settings: a file or folder name in them is not valid UTF-8 "
                    "(rename it to keep it across restarts)."
                )
            ) from error
        try:
            write_text_atomic(self.path, text)
        except OSError as error:
            raise StorageError(
                tr("Could not save settings to {parent}: {reason}").format(
                    parent=self.path.parent, reason=error.strerror or error
                )
            ) from error

    def _save_quietly(self, settings: Settings) -> None:
        try:
            self.save(settings)
        except StorageError as error:
            log.warning("%s", error)

    def _set_aside(self, raw: bytes, reason: str) -> Path:
        """Keep the old content beside the file, without its passwords (0600, like the file)."""
        backup = self.path.with_name(f"{self.path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            write_text_atomic(backup, redacted_copy(raw))
        except OSError as error:
            log.warning("cannot back up broken settings to %s: %s", backup, error)
        # Info, not warning: the user is told once through the notice.
        log.info("settings file %s was %s; a copy is at %s", self.path, reason, backup)
        return backup


def _validate_repairing(data: dict[str, Any]) -> tuple[Settings, list[str]]:
    """Validate, dropping each invalid key (nested keys one level deep) until it passes."""
    reset: list[str] = []
    for _ in range(50):  # each round removes at least one key, so this always ends
        try:
            return Settings(**data), reset
        except ValidationError as error:
            for issue in error.errors():
                location = [str(part) for part in issue["loc"]]
                if not location:
                    continue
                _drop_key(data, location)
                reset.append(".".join(location[:2]))
    return Settings(), reset or ["all"]


def _forget_unknown_endpoints(settings: Settings) -> list[str]:
    """Put each model that runs on an endpoint the settings do not configure (a stale or
    hand-edited name) back on its default device; the names of the choices reset."""
    models, reset = settings.models.without_unknown_endpoints(settings.remote_endpoints)
    settings.models = models
    return reset


def _drop_key(data: dict[str, Any], location: list[str]) -> None:
    top = location[0]
    nested = data.get(top)
    if len(location) > 1 and isinstance(nested, dict) and location[1] in nested:
        del nested[location[1]]
    else:
        data.pop(top, None)
