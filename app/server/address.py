"""Where the server listens: a small module of its own, so the window can show an address
without importing the web stack (FastAPI, uvicorn) before the server is switched on."""

from __future__ import annotations

from dataclasses import dataclass


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
