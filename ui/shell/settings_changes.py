"""Settings changes from widgets: one call that saves through the store and reports a refusal.

A widget never assigns a settings field itself: it asks the store (which validates, saves the
file atomically and tells subscribers), and never refreshes other widgets after it: those that
show the setting follow through :mod:`ui.settings_signals`. A change the store refuses — a
read-only config folder, most likely — is reported in one sentence where the panel reports
things, and the settings stay as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.core import SettingsStore, UserError

Report = Callable[[str], None]
"""Shows a sentence to the user (a status bar, a notification, an inline error)."""


def change_settings(store: SettingsStore, report: Report, **changes: Any) -> bool:
    """Apply ``changes`` through ``store``; whether they were kept (else ``report`` says why)."""
    try:
        store.update(**changes)
    except UserError as error:
        report(str(error))
        return False
    return True
