"""What the routes share: the app's services, the served chat models, the token, the limits."""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request

from app.context import AppContext
from app.server.served_models import ServedModels
from pipelines.chat import GenerationSettings


@dataclass
class ServerState:
    """Held by the FastAPI app (``app.state.server``) for its whole life."""

    ctx: AppContext
    """The app's services: knowledge (embeddings, RAG), voice, speech input, metrics."""
    served: ServedModels
    token: str
    """The bearer token every request must carry (replaced when the user makes a new one)."""
    started: float = 0.0
    requests: int = 0
    """Requests answered since start (for the status bar)."""
    notes: list[str] = field(default_factory=list)

    def defaults(self) -> GenerationSettings:
        """The chat's generation settings, for what a request leaves out."""
        return self.ctx.settings.chat.generation()


def state_of(request: Request) -> ServerState:
    """The server's state, from a route's request."""
    state: ServerState = request.app.state.server
    return state
