"""What to say when the model hub cannot be reached: one sentence, never an errno.

Offline, behind a proxy that refuses, or with ``HF_ENDPOINT`` naming a host that does not
resolve, the HTTP client raises a socket error (``[Errno -2] Name or service not known``)
that means nothing to a person. The sentence says what to check and which hub was asked, for
the window and the command line alike; the raw error goes to the log only.
"""

from __future__ import annotations

import os

from app.core.texts import tr

DEFAULT_ENDPOINT = "https://huggingface.co"
ENDPOINT_ENV = "HF_ENDPOINT"


def hub_endpoint(endpoint: str | None = None) -> str:
    """The hub address downloads use: ``endpoint``, else ``HF_ENDPOINT``, else the public hub."""
    return endpoint or os.environ.get(ENDPOINT_ENV) or DEFAULT_ENDPOINT


def unreachable_message(endpoint: str | None = None) -> str:
    """``Can't reach the model hub at … — check your connection or proxy; HF_ENDPOINT is …``.

    Args:
        endpoint: The address that was asked (None: the environment's, or the public hub).
    """
    setting = os.environ.get(ENDPOINT_ENV, "").strip() or "not set"
    return tr(
        "Can't reach the model hub at {address} — check your connection or proxy; "
        "{endpoint_env} is {setting}."
    ).format(address=hub_endpoint(endpoint), endpoint_env=ENDPOINT_ENV, setting=setting)


def is_unreachable(error: BaseException) -> bool:
    """Whether ``error`` (from the HTTP client) means no connection to the hub was made:
    no network, an unknown host, a refused connection, a proxy failure, a connect timeout.

    A connection that broke after bytes arrived is not this (what arrived is kept to resume).
    """
    for cause in _chain(error):
        name = type(cause).__name__
        module = type(cause).__module__
        if module.startswith(("httpx", "httpcore")) and name in _CONNECT_ERRORS:
            return True
        if isinstance(cause, (ConnectionRefusedError, TimeoutError)) or name == "gaierror":
            return True
        if isinstance(cause, RuntimeError) and CLOSED_CLIENT in str(cause):
            return True
    return False


CLOSED_CLIENT = "client has been closed"
"""huggingface_hub (1.21) closes its shared HTTP client on a connect error and then retries
with the closed one: ``hf_hub_download`` offline ends in this RuntimeError, with no cause."""


_CONNECT_ERRORS = frozenset({"ConnectError", "ConnectTimeout", "ProxyError", "UnsupportedProtocol"})


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and its causes and contexts, each once."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen
