"""An OpenAI-compatible endpoint as the *Remote endpoints* dialog edits it (saved only when the
dialog is), the name a new one starts with, and where the edited keys go when it is saved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core import SecretStore, StorageError
from app.engines import RemoteEndpoint, read_key, save_key
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
    key_problem: str = ""
    """Why its saved key could not be read or kept (shown under the key until it is typed)."""


def saved_drafts(endpoints: Sequence[RemoteEndpoint], secrets: SecretStore) -> list[EndpointDraft]:
    """A draft of each saved endpoint with its key; a key the secret store cannot give stays
    empty, and why is said under it."""
    drafts = []
    for endpoint in endpoints:
        draft = EndpointDraft(endpoint.name, endpoint.base_url, "", endpoint.model, endpoint.name)
        try:
            draft.key = read_key(secrets, endpoint.name)
        except StorageError as error:
            draft.key_problem = str(error)
        drafts.append(draft)
    return drafts


def save_keys(
    secrets: SecretStore,
    saved: Sequence[tuple[EndpointDraft, RemoteEndpoint]],
    removed: Sequence[str],
) -> None:
    """Store each draft's key under the name its endpoint is saved with: a renamed endpoint's
    key moves, a removed one's (``removed``: their saved names) goes.

    Raises:
        StorageError: the secret store could not be written.
    """
    for name in removed:
        save_key(secrets, name, "")
    for draft, endpoint in saved:
        if draft.saved_name and draft.saved_name.casefold() != endpoint.name.casefold():
            save_key(secrets, draft.saved_name, "")  # renamed: the key moves
        save_key(secrets, endpoint.name, draft.key)
