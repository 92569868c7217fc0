"""An OpenAI-compatible endpoint as the *Remote endpoints* dialog edits it (saved only when the
dialog is), and the name a new one starts with."""

from __future__ import annotations

from dataclasses import dataclass, field

from ui.i18n import tr


def new_name() -> str:
    """The name a new endpoint starts with (numbered when taken)."""
    return tr("New endpoint")


@dataclass(eq=False)
class EndpointDraft:
    """One endpoint as it is being edited (saved only when the dialog is)."""

    name: str
    base_url: str = ""
    key: str = ""
    model: str = ""
    saved_name: str | None = None
    """Its name in the settings (None for a new one): a renamed endpoint's key moves."""
    models: list[str] = field(default_factory=list)
    result: str = ""
    """The last *Test connection* sentence, shown again when it is selected."""
