"""Remote endpoints as the settings hold them: their names, addresses and chosen model, what
makes one valid, and the device values that choose one (``REMOTE:<name>``, shown as
"Remote: <name>").

Plain values: reaching an endpoint (its API key, its client) is :mod:`app.engines.remote`'s
work, so the settings can name endpoints without loading ``openai``.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator

from app.core.errors import UserError
from app.core.texts import tr

DEVICE_PREFIX = "REMOTE:"
"""A device value naming a remote endpoint: ``REMOTE:<endpoint name>``."""


NAME_EMPTY = tr("An endpoint needs a name.")
URL_EMPTY = tr("Enter the endpoint's address, e.g. http://ovms.lan:8000/v3.")
URL_NOT_HTTP = tr("The address must start with http:// or https:// and name a host.")
URL_TOO_LONG = tr("Keep the address under 2000 characters.")
NAME_CONTROL = tr("The name has a control character in it: type it again.")
URL_CONTROL = tr("The address has a control character in it: type it again.")


class RemoteEndpoint(BaseModel):
    """An OpenAI-compatible server the app can run chat on. Its API key is not here: the
    secret store keeps it (:func:`app.engines.remote.config.key_name`)."""

    name: str = Field(min_length=1, max_length=60, description="Shown as “Remote: name”.")
    base_url: str = Field(
        min_length=1, max_length=2000, description="e.g. http://ovms.lan:8000/v3 or …/v1."
    )
    model: str = Field("", max_length=500, description="The remote model chat uses.")

    @field_validator("name")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError(NAME_EMPTY)
        if not value.isprintable():
            raise ValueError(NAME_CONTROL)
        return value

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value.isprintable():
            raise ValueError(URL_CONTROL)
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(URL_NOT_HTTP)
        return value


def endpoint_problems(name: str, base_url: str, other_names: Sequence[str]) -> dict[str, str]:
    """What is wrong with an endpoint being typed, by field (``name``, ``base_url``): an empty,
    duplicate (names compare case-blind, as device values do) or too long name, an empty, too
    long or non-http(s) address, a control character in either. Empty when it can be saved."""
    problems: dict[str, str] = {}
    plain = " ".join(name.split())
    if not plain:
        problems["name"] = NAME_EMPTY
    elif plain.casefold() in {other.casefold() for other in other_names}:
        problems["name"] = f"Another endpoint is already called “{plain}”: choose another name."
    elif len(plain) > 60:
        problems["name"] = "Keep the name under 60 characters."
    elif not plain.isprintable():
        problems["name"] = NAME_CONTROL
    url = base_url.strip()
    if not url:
        problems["base_url"] = URL_EMPTY
    elif len(url) > 2000:
        problems["base_url"] = URL_TOO_LONG
    elif not url.isprintable():  # a pasted tab or NUL: urlsplit would quietly drop some
        problems["base_url"] = URL_CONTROL
    else:
        try:
            parts = urlsplit(url)
            ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        except ValueError:  # e.g. an unclosed IPv6 bracket
            ok = False
        if not ok:
            problems["base_url"] = URL_NOT_HTTP
    return problems


def device_value(name: str) -> str:
    """The device value that chooses endpoint ``name``."""
    return f"{DEVICE_PREFIX}{name}"


def is_remote(device: str) -> bool:
    """Whether a device value names a remote endpoint."""
    return device.strip().upper().startswith(DEVICE_PREFIX)


def device_label(name: str) -> str:
    """How the pickers and the overlay show endpoint ``name``."""
    return f"Remote: {name}"


def find_endpoint(device: str, endpoints: Sequence[RemoteEndpoint]) -> RemoteEndpoint:
    """The endpoint a ``REMOTE:<name>`` device value names (names compare case-blind).

    Raises:
        UserError: (field ``device``) no endpoint of that name is configured.
    """
    wanted = device.strip()[len(DEVICE_PREFIX) :].strip().casefold()
    for endpoint in endpoints:
        if endpoint.name.casefold() == wanted:
            return endpoint
    offered = ", ".join(e.name for e in endpoints) or "none is configured"
    raise UserError(
        tr("There is no remote endpoint called “{name}” (configured: {offered}).").format(
            name=device.strip()[len(DEVICE_PREFIX) :], offered=offered
        ),
        field="device",
    )
