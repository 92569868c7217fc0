"""Prefix caching and bounded memory (cache eviction) are never both ticked.

GenAI cannot evict blocks that prefix caching shares between turns, so ``EngineOptions.check``
refuses the pair. Rather than let a click reach that refusal, ticking one unticks the other and
a muted line under them says why (announced to screen readers); it goes when either is ticked
again by hand, or the section shows stored settings.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QCheckBox, QLabel

from ui.i18n import tr
from ui.widgets.dialog_rows import say


def prefix_off_note() -> str:
    """Said when ticking bounded memory unticked prefix caching."""
    return tr("Prefix caching is now off: bounded memory cannot forget what turns share.")


def eviction_off_note() -> str:
    """Said when ticking prefix caching unticked bounded memory."""
    return tr("Bounded memory is now off: it cannot forget what prefix caching shares.")


class OneCacheAtATime(QObject):
    """Keeps ``prefix`` and ``eviction`` from being ticked together; ``note`` says why."""

    def __init__(self, prefix: QCheckBox, eviction: QCheckBox, parent: QObject | None = None):
        super().__init__(parent)
        self.prefix = prefix
        self.eviction = eviction
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted, as a hint
        self.note.hide()
        self.quiet = False  # True while the section shows stored settings
        # Connected before the section's own handler: it sees the pair already resolved.
        prefix.toggled.connect(self._on_prefix)
        eviction.toggled.connect(self._on_eviction)

    def clear(self) -> None:
        """No note (the controls show stored settings again)."""
        self.note.clear()
        self.note.hide()

    @Slot(bool)
    def _on_prefix(self, on: bool) -> None:
        self._resolve(on, self.eviction, eviction_off_note())

    @Slot(bool)
    def _on_eviction(self, on: bool) -> None:
        self._resolve(on, self.prefix, prefix_off_note())

    def _resolve(self, on: bool, other: QCheckBox, why: str) -> None:
        if self.quiet:
            return
        if on and other.isChecked():
            self.quiet = True  # unticking the other is not a choice of the user's
            other.setChecked(False)
            self.quiet = False
            self.note.show()
            say(self.note, why)
        elif on:
            self.clear()
