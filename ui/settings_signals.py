"""Settings that announce their changes to the window, whichever thread made them.

:class:`~app.core.settings_store.SettingsStore` tells its subscribers, in the thread that made the
change, which top-level fields changed. :class:`SettingsSignals` turns that into a Qt signal on
the GUI thread: at once for a change made there (a widget's choice), through the task runner's
bridge for one made elsewhere (a job saving the embedding model it loaded, the database it
moved to, the local server). A panel listens only to the fields it shows::

    signals.connect_keys({"remote_endpoints"}, self.refresh_remotes)

so it is woken by those and by nothing else, and it never needs to be refreshed by whoever
made the change. Keys are top-level field names of :class:`~app.core.settings.Settings` (a nested
model such as ``server`` is one key); a name that is not one is refused at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from app.core import Settings, SettingsStore
from app.models import ModelTask
from ui.tasks import TaskRunner

ChangedFields = frozenset[str]
"""The top-level settings fields one saved change touched."""


class SettingsSignals(QObject):
    """The window's settings: read them, change them (through :attr:`store`), hear changes.

    Lives as long as the window; :meth:`close` stops listening to the store (the window does
    it when it closes: a change made after that reaches no widget).
    """

    changed = Signal(object)
    """Emitted on the GUI thread after each saved change, with its :data:`ChangedFields`."""

    def __init__(
        self, store: SettingsStore, tasks: TaskRunner, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        """Where changes go (``ui.shell.settings_changes.change_settings``)."""
        self._listener = _StoreListener(self._announce, tasks)
        self._listener.unsubscribe = store.subscribe(self._listener)
        self.destroyed.connect(self._listener.close)  # a window deleted without closing

    @property
    def settings(self) -> Settings:
        """The live settings (read only: changes go through :attr:`store`)."""
        return self.store.settings

    def connect_keys(self, keys: Iterable[str], slot: Callable[..., Any]) -> QObject:
        """Call ``slot`` on the GUI thread after a change that touches any of ``keys``.

        ``slot`` receives the :data:`ChangedFields` of the change, or nothing when it takes
        no argument. A ``@Slot`` method of a Qt object is the rule (as for a task's
        callbacks): the connection then ends with that object.

        Returns:
            The filter between the signal and ``slot`` (delete it to disconnect).

        Raises:
            ValueError: a key is not a settings field (a typo would never fire).
        """
        wanted = frozenset(keys)
        unknown = sorted(wanted - Settings.model_fields.keys())
        if unknown or not wanted:
            raise ValueError(f"not settings fields: {unknown or 'none given'}")
        owner = getattr(slot, "__self__", None)
        key_filter = _KeyFilter(wanted, owner if isinstance(owner, QObject) else self)
        self.changed.connect(key_filter.on_changed)
        key_filter.matched.connect(slot)
        return key_filter

    def connect_model_choices(
        self, tasks: Iterable[ModelTask], slot: Callable[..., Any]
    ) -> QObject:
        """Call ``slot`` on the GUI thread after a change of the model chosen for one of
        ``tasks`` (its folder or where it runs), not after a change of another task's: the
        settings hold every task's choice in the one ``models`` field.

        Returns:
            The filter between the signal and ``slot`` (delete it to disconnect).
        """
        wanted = tuple(tasks)
        if not wanted:
            raise ValueError("no tasks given")

        def choices() -> tuple[object, ...]:
            return tuple(self.settings.model_choice(task) for task in wanted)

        owner = getattr(slot, "__self__", None)
        choice_filter = _ChoiceFilter(choices, owner if isinstance(owner, QObject) else self)
        self.changed.connect(choice_filter.on_changed)
        choice_filter.matched.connect(slot)
        return choice_filter

    def close(self) -> None:
        """Stop listening to the store (idempotent)."""
        self._listener.close()

    @Slot(object)
    def _announce(self, fields: ChangedFields) -> None:
        self.changed.emit(fields)


class _StoreListener:
    """The store's subscriber: a plain object, since the store calls it on any thread."""

    def __init__(self, announce: Callable[[ChangedFields], None], tasks: TaskRunner) -> None:
        self._announce = announce
        self._tasks = tasks
        self.closed = False
        self.unsubscribe: Callable[[], None] | None = None

    def __call__(self, changes: Mapping[str, Any]) -> None:
        if self.closed:  # the window closed while a thread was changing a setting
            return
        # A widget's own choice is heard before its call returns (as a refresh written after
        # it was); another thread's, soon after, on the GUI thread.
        self._tasks.post(self._announce, frozenset(changes))

    def close(self) -> None:
        """Announce nothing more, and leave the store's list (once)."""
        self.closed = True
        unsubscribe, self.unsubscribe = self.unsubscribe, None
        if unsubscribe is not None:
            unsubscribe()


class _KeyFilter(QObject):
    """Passes on the changes that touch its keys (a child of the receiver: ends with it)."""

    matched = Signal(object)

    def __init__(self, keys: ChangedFields, parent: QObject) -> None:
        super().__init__(parent)
        self.keys = keys

    @Slot(object)
    def on_changed(self, fields: ChangedFields) -> None:
        if fields & self.keys:
            self.matched.emit(fields)


class _ChoiceFilter(QObject):
    """Passes on the changes of ``models`` that change the choices it watches."""

    matched = Signal(object)

    def __init__(self, choices: Callable[[], tuple[object, ...]], parent: QObject) -> None:
        super().__init__(parent)
        self._choices = choices
        self._last = choices()

    @Slot(object)
    def on_changed(self, fields: ChangedFields) -> None:
        if "models" not in fields:
            return
        now = self._choices()
        if now != self._last:
            self._last = now
            self.matched.emit(fields)
