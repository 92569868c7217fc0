"""How the image service reaches a remote endpoint: a factory that makes the endpoint's
generator for a ``REMOTE:<name>`` device value. Light on purpose — the composition root builds
it at every start — so the client's modules load only when a picture is first drawn there."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from app.core.remote_endpoints import RemoteEndpoint, find_endpoint

if TYPE_CHECKING:
    from app.images.remote_generator import RemoteImageGenerator

RemoteImagesFactory = Callable[[str], "RemoteImageGenerator"]
"""Makes the generator for a ``REMOTE:<name>`` device value (the endpoint's chosen model)."""


def remote_images_factory(
    endpoints: Callable[[], Sequence[RemoteEndpoint]], api_key: Callable[[str], str]
) -> RemoteImagesFactory:
    """A :data:`RemoteImagesFactory` over the configured ``endpoints`` and their keys, both read
    at each job (an endpoint edited in Settings is used at once); the client loads then."""

    def make(device: str) -> RemoteImageGenerator:
        from app.images.remote_generator import RemoteImageGenerator

        endpoint = find_endpoint(device, endpoints())
        return RemoteImageGenerator(endpoint, api_key(endpoint.name), endpoint.model)

    return make
