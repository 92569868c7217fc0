"""Reaching a remote endpoint: the client (the app's timeouts, no retries), its model list,
the connection test, and one sentence for each way a request fails."""

from __future__ import annotations

import logging
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import openai

from app.core.errors import UserError
from app.core.remote_endpoints import RemoteEndpoint
from app.core.texts import tr

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 5.0
"""A server that does not accept in 5 s is down or firewalled; waiting longer only hides it."""
READ_TIMEOUT_S = 60.0
"""Between two bytes of an answer: a loaded remote model sends its first token well within a
minute even for a long prompt; a longer silence is a stuck server, not a slow one."""


@dataclass(frozen=True)
class RemoteModel:
    """A model a remote endpoint serves; ``context_tokens`` when the server says (vLLM's
    ``max_model_len``), else None."""

    id: str
    context_tokens: int | None = None


def make_client(endpoint: RemoteEndpoint, api_key: str) -> openai.OpenAI:
    """An OpenAI client for ``endpoint``: no retries (a failure is said at once, and a retried
    chat would answer twice) and the app's timeouts."""
    return openai.OpenAI(
        base_url=endpoint.base_url,
        # The client insists on a key; servers without auth ignore whatever is sent.
        api_key=api_key or "none",
        max_retries=0,
        timeout=openai.Timeout(READ_TIMEOUT_S, connect=CONNECT_TIMEOUT_S),
    )


def list_models(endpoint: RemoteEndpoint, api_key: str) -> list[RemoteModel]:
    """The models ``endpoint`` serves (``GET <base>/models``).

    Raises:
        UserError: (field ``device``) one sentence: unreachable, timeout, bad key, TLS, not an
            OpenAI-compatible API.
    """
    try:
        with make_client(endpoint, api_key) as client:
            page = client.models.list()
            models = [_remote_model(item) for item in page.data]
    except openai.NotFoundError as error:
        raise UserError(_not_an_api(endpoint), field="device") from error
    except openai.OpenAIError as error:
        raise UserError(explain(error, endpoint), field="device") from error
    except (TypeError, ValueError, AttributeError) as error:  # HTML or other JSON than a list
        raise UserError(_not_an_api(endpoint), field="device") from error
    if any(not model.id for model in models):
        raise UserError(_not_an_api(endpoint), field="device")
    return models


@dataclass(frozen=True)
class ConnectionCheck:
    """What *Test connection* found: one sentence, and the models (empty when it failed)."""

    message: str
    models: tuple[RemoteModel, ...] = ()
    ok: bool = False


def check_connection(endpoint: RemoteEndpoint, api_key: str) -> ConnectionCheck:
    """Ask ``endpoint`` for its models: one sentence saying whether it answers as an OpenAI
    API and what it serves, and the model list. Never raises for a network problem."""
    try:
        models = list_models(endpoint, api_key)
    except UserError as error:
        return ConnectionCheck(str(error))
    if not models:
        return ConnectionCheck(
            f"Connected to {endpoint.base_url}, but it serves no model yet.", ok=True
        )
    names = ", ".join(model.id for model in models[:5])
    more = f" and {len(models) - 5} more" if len(models) > 5 else ""
    return ConnectionCheck(
        f"Connected: {endpoint.base_url} serves {names}{more}.", tuple(models), ok=True
    )


def test_connection(endpoint: RemoteEndpoint, api_key: str) -> str:
    """One sentence saying whether ``endpoint`` answers as an OpenAI API, and what it serves
    (the dialog's *Test connection*). Never raises for a network problem."""
    return check_connection(endpoint, api_key).message


def explain(error: BaseException, endpoint: RemoteEndpoint, model: str = "") -> str:
    """One sentence for a failed request to ``endpoint`` (about ``model`` when given)."""
    where = endpoint.base_url
    host = urlsplit(where).netloc
    if isinstance(error, openai.APITimeoutError):
        return tr(
            "{host} did not answer in time (timed out after {connect_timeout_s:g} s to "
            "connect, {read_timeout_s:g} s to reply)."
        ).format(host=host, connect_timeout_s=CONNECT_TIMEOUT_S, read_timeout_s=READ_TIMEOUT_S)
    if isinstance(error, openai.APIConnectionError):
        cause = _root_cause(error)
        if isinstance(cause, ssl.SSLError):
            return tr(
                "The secure connection to {host} failed ({reason}): check that the address "
                "uses the right scheme and that its certificate is trusted."
            ).format(host=host, reason=_ssl_reason(cause))
        if _is_dns_failure(cause):
            return tr("Cannot find the host {hostname}: check the address.").format(
                hostname=urlsplit(where).hostname
            )
        return tr("Cannot reach {host}: is the endpoint running, and is the address right?").format(
            host=host
        )
    if isinstance(error, openai.AuthenticationError):
        return tr("{host} refused the API key (401): enter the key the endpoint expects.").format(
            host=host
        )
    if isinstance(error, openai.PermissionDeniedError):
        return tr(
            "{host} refused the API key (403): this key may not use that endpoint or model."
        ).format(host=host)
    if isinstance(error, openai.NotFoundError):
        if model:
            return tr(
                "{host} has no model called “{model}”: choose one from its model list."
            ).format(host=host, model=model)
        return _not_an_api(endpoint)
    if isinstance(error, openai.APIStatusError):
        return tr("{host} answered with an error ({status_code}): {message}").format(
            host=host, status_code=error.status_code, message=_server_message(error)
        )
    if isinstance(error, openai.APIResponseValidationError):
        return _not_an_api(endpoint)
    return tr("The request to {host} failed: {error}").format(host=host, error=error)


def _not_an_api(endpoint: RemoteEndpoint) -> str:
    return tr(
        "{base_url} does not answer as an OpenAI-compatible API (no model list at "
        "/models): the address usually ends in /v1 (OVMS: /v3)."
    ).format(base_url=endpoint.base_url)


def _remote_model(item: Any) -> RemoteModel:
    model_id = item.id
    if not isinstance(model_id, str):
        raise TypeError("a model without an id")
    extra = getattr(item, "model_extra", None) or {}
    length = extra.get("max_model_len")
    return RemoteModel(model_id, length if isinstance(length, int) and length > 0 else None)


def _root_cause(error: BaseException) -> BaseException | None:
    seen: BaseException | None = error
    while seen is not None:
        cause = seen.__cause__ or seen.__context__
        if cause is None or isinstance(cause, ssl.SSLError):
            return cause or seen
        seen = cause
    return None


def _is_dns_failure(cause: BaseException | None) -> bool:
    import socket

    seen = cause
    while seen is not None:
        if isinstance(seen, socket.gaierror):
            return True
        seen = seen.__cause__ or seen.__context__
    text = str(cause or "")
    return (
        "Name or service not known" in text
        or "nodename nor servname" in text
        or ("getaddrinfo failed" in text)
    )


def _ssl_reason(error: ssl.SSLError) -> str:
    return str(getattr(error, "reason", None) or error).replace("_", " ").lower()


def _server_message(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        message = body.get("message") or body.get("error")
        if isinstance(message, dict):
            message = message.get("message")
        if isinstance(message, str) and message:
            return message.strip()
    return "no reason given."


test_connection.__test__ = False  # type: ignore[attr-defined]  # a product function, not a test
