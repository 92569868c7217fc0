"""Where the server listens, and whether an address is loopback: a small module of its own,
so the window can show an address without importing the web stack (FastAPI, uvicorn) before
the server is switched on."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable only from this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Address:
    """Where the server listens."""

    host: str
    port: int

    @property
    def url(self) -> str:
        """The base URL clients use (``/v1`` and ``/api`` hang under it)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"
