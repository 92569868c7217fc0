"""What a remote images endpoint sent back, read as hostile: one sentence for each way it fails
(unreachable, a refused key, a missing model, an error status, a body that is not pictures, a
picture too big), and the pictures, with whatever settings they carry, when it did not."""

from __future__ import annotations

import base64
import binascii
import json
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from app.core.errors import UserError
from app.core.remote_endpoints import RemoteEndpoint
from app.core.texts import tr
from app.engines.remote.cancellable_post import CONNECT_TIMEOUT_S, Answer
from app.images.picture_metadata import recall
from pipelines.core import InvalidInputError
from pipelines.image_size import header_size
from pipelines.images import Picture, read_picture
from pipelines.images.request import MAX_SIDE

MAX_MESSAGE_CHARS = 300
"""A server's own reason is quoted up to this length (an HTML error page is not a reason)."""


@dataclass(frozen=True)
class Said:
    """The settings the endpoint's first picture carries (an OV Studio server writes them into
    its PNGs; OVMS writes none): None / "" where absent or unusable."""

    seed: int | None = None
    steps: int | None = None
    guidance: float = 0.0
    strength: float = 1.0
    model: str = ""


def explain_failure(cause: BaseException, endpoint: RemoteEndpoint, read_timeout_s: float) -> str:
    """One sentence for a request that got no answer."""
    host = urlsplit(endpoint.base_url).netloc
    if isinstance(cause, TimeoutError):
        return tr(
            "{host} did not answer in time (timed out after {connect_timeout_s:g} s to "
            "connect, {read_timeout_s:g} s to reply)."
        ).format(host=host, connect_timeout_s=CONNECT_TIMEOUT_S, read_timeout_s=read_timeout_s)
    if isinstance(cause, ssl.SSLError):
        reason = str(getattr(cause, "reason", None) or cause).replace("_", " ").lower()
        return tr(
            "The secure connection to {host} failed ({reason}): check that the address "
            "uses the right scheme and that its certificate is trusted."
        ).format(host=host, reason=reason)
    if isinstance(cause, socket.gaierror):
        return tr("Cannot find the host {hostname}: check the address.").format(
            hostname=urlsplit(endpoint.base_url).hostname
        )
    if isinstance(cause, ConnectionRefusedError):
        return tr("Cannot reach {host}: is the endpoint running, and is the address right?").format(
            host=host
        )
    return tr("{host} closed the connection before sending the pictures.").format(host=host)


def refusal(answer: Answer, endpoint: RemoteEndpoint, model: str, route: str) -> UserError | None:
    """The error an answer's status or size means, or None for a 200 of a bounded size."""
    host = urlsplit(endpoint.base_url).netloc
    status = answer.status
    if status == 401:
        return UserError(
            tr("{host} refused the API key (401): enter the key the endpoint expects.").format(
                host=host
            ),
            field="device",
        )
    if status == 403:
        return UserError(
            tr(
                "{host} refused the API key (403): this key may not use that endpoint or model."
            ).format(host=host),
            field="device",
        )
    reason = _reason(answer)
    if status == 404:
        if model and "model" in reason.casefold():
            return UserError(
                tr("{host} has no model called “{model}”: choose one from its model list.").format(
                    host=host, model=model
                ),
                field="model",
            )
        return UserError(
            tr(
                "{base_url} has no images API at /images/{route}: the address usually ends in "
                "/v1 (OV Studio) or /v3 (OpenVINO Model Server)."
            ).format(base_url=endpoint.base_url, route=route),
            field="device",
        )
    if status == 429:
        return UserError(
            tr("{host} is busy with another picture: try again in a moment.").format(host=host),
            field="device",
        )
    if status != 200:
        return UserError(
            tr("{host} answered with an error ({status_code}): {message}").format(
                host=host, status_code=status, message=reason or tr("no reason given.")
            ),
            field="device",
        )
    if answer.too_long:
        return UserError(
            tr("{host} sent more than the pictures asked for can take: nothing was kept.").format(
                host=host
            ),
            field="device",
        )
    return None


def pictures_in(data: object, count: int, endpoint: RemoteEndpoint) -> tuple[list[Picture], Said]:
    """The pictures of an images answer (``{"data": [{"b64_json": …}, …]}``), each checked to
    be a picture of at most :data:`MAX_SIDE` a side, and the settings the first one carries.

    Raises:
        UserError: (field ``device``) not an images answer, not pictures, more than were asked
            for, or a picture too big.
    """
    host = urlsplit(endpoint.base_url).netloc
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list) or not 1 <= len(items) <= count:
        raise UserError(_not_pictures(host), field="device")
    pictures: list[Picture] = []
    first: bytes = b""
    for item in items:
        encoded = item.get("b64_json") if isinstance(item, dict) else None
        if not isinstance(encoded, str):
            raise UserError(_not_pictures(host), field="device")
        try:
            raw = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError) as error:
            raise UserError(_not_pictures(host), field="device") from error
        size = header_size(raw)
        if size is None:
            raise UserError(_not_pictures(host), field="device")
        if max(size) > MAX_SIDE:
            raise UserError(
                tr(
                    "{host} sent a picture of {width}×{height} pixels; the app takes at most "
                    "{limit}×{limit}."
                ).format(host=host, width=size[0], height=size[1], limit=MAX_SIDE),
                field="device",
            )
        try:
            pictures.append(read_picture(raw, name=tr("A picture from {host}").format(host=host)))
        except InvalidInputError as error:
            raise UserError(str(error), field="device") from error
        first = first or raw
    return pictures, _said(first)


def _said(png: bytes) -> Said:
    recalled = recall(png)
    if not recalled.found:
        return Said()
    request = recalled.request
    return Said(
        seed=request.seed,
        steps=request.steps,
        guidance=request.guidance if request.guidance is not None else 0.0,
        strength=request.strength if request.strength is not None else 1.0,
        model=recalled.model,
    )


def _reason(answer: Answer) -> str:
    """The server's own reason: OpenAI's ``{"error": {"message": …}}``, OVMS's
    ``{"error": "…"}``, FastAPI's ``{"detail": …}``, or short plain text."""
    text = answer.body[:65536].decode("utf-8", "replace")
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    message: object = None
    if isinstance(body, dict):
        message = body.get("error") or body.get("detail") or body.get("message")
        if isinstance(message, dict):
            message = message.get("message")
    elif "html" not in answer.content_type:
        message = text
    if not isinstance(message, str):
        return ""
    message = " ".join(message.split())
    return message[:MAX_MESSAGE_CHARS] + ("…" if len(message) > MAX_MESSAGE_CHARS else "")


def not_pictures(endpoint: RemoteEndpoint) -> str:
    """The sentence for an answer that is not pictures."""
    return _not_pictures(urlsplit(endpoint.base_url).netloc)


def _not_pictures(host: str) -> str:
    return tr("{host} answered with something that is not pictures.").format(host=host)
