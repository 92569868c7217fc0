"""Reaching the configured remote endpoints: their API keys, kept in the secret store (the
keyring), never in the settings file; the factories that make a remote pipeline for a
``REMOTE:<name>`` device value; and the device picker's entries for them. Light: no client is
imported here until a remote model is first loaded.

The endpoints themselves, as the settings hold them, are :mod:`app.core.remote_endpoints`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from app.core.devices import DeviceChoice
from app.core.remote_endpoints import RemoteEndpoint, device_label, device_value, find_endpoint
from app.core.storage.secrets import SecretStore

if TYPE_CHECKING:  # the client (openai) is imported when a remote model is first loaded
    from app.engines.remote.chat import RemoteChatPipeline
    from app.engines.remote.embeddings import RemoteEmbedder


def key_name(endpoint_name: str) -> str:
    """The secret store's name for an endpoint's API key."""
    return f"remote-endpoint:{endpoint_name.casefold()}"


def read_key(secrets: SecretStore, endpoint_name: str) -> str:
    """The endpoint's API key, or "" when it has none."""
    return secrets.get(key_name(endpoint_name)) or ""


def save_key(secrets: SecretStore, endpoint_name: str, key: str) -> None:
    """Keep (or, when empty, forget) an endpoint's API key in the secret store.

    Raises:
        StorageError: neither the keyring nor the secrets file could take it.
    """
    if key:
        secrets.set(key_name(endpoint_name), key)
    else:
        secrets.delete(key_name(endpoint_name))


RemoteChatFactory = Callable[[str, str], "RemoteChatPipeline"]
"""Makes the pipeline for a ``REMOTE:<name>`` device value and a remote model id."""


def remote_chat_factory(
    endpoints: Callable[[], Sequence[RemoteEndpoint]], api_key: Callable[[str], str]
) -> RemoteChatFactory:
    """A :data:`RemoteChatFactory` over the configured ``endpoints`` (read at each load, so an
    endpoint added in Settings is usable at once) and their keys (``api_key(name)``)."""

    def make(device: str, model: str) -> RemoteChatPipeline:
        from app.engines.remote.chat import RemoteChatPipeline

        endpoint = find_endpoint(device, endpoints())
        return RemoteChatPipeline(endpoint, api_key(endpoint.name), model or endpoint.model)

    return make


RemoteEmbedderFactory = Callable[[str], "RemoteEmbedder"]
"""Makes the (not yet loaded) embedder for a ``REMOTE:<name>`` device value: the endpoint's
chosen model is the embedding model."""


def remote_embedder_factory(
    endpoints: Callable[[], Sequence[RemoteEndpoint]], api_key: Callable[[str], str]
) -> RemoteEmbedderFactory:
    """A :data:`RemoteEmbedderFactory` over the configured ``endpoints`` and their keys (both
    read at each call, as for chat)."""

    def make(device: str) -> RemoteEmbedder:
        from app.engines.remote.embeddings import RemoteEmbedder

        endpoint = find_endpoint(device, endpoints())
        return RemoteEmbedder(endpoint, api_key(endpoint.name), endpoint.model)

    return make


def remote_choices(endpoints: Sequence[RemoteEndpoint]) -> list[DeviceChoice]:
    """Device-picker entries for the configured endpoints, after the local devices; one
    without a chosen model is listed disabled (there would be nothing to run there)."""
    choices: list[DeviceChoice] = []
    for endpoint in endpoints:
        ready = bool(endpoint.model)
        tip = (
            f"Runs {endpoint.model} on {endpoint.base_url}"
            if ready
            else f"Choose the model {endpoint.name} should run (edit the endpoint)."
        )
        choices.append(
            DeviceChoice(device_value(endpoint.name), device_label(endpoint.name), ready, tip)
        )
    return choices
