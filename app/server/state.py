"""What the routes share: the app's services, the served chat models, the token, the limits."""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request

from app.chat import GenerationSettings
from app.context import AppContext
from app.server.responses_store import ResponseStore
from app.server.served_models import ServedModel, ServedModels


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
    responses: ResponseStore = field(default_factory=ResponseStore)
    """The Responses API's answers of this run, for ``previous_response_id`` (in memory)."""

    def defaults(self, model: ServedModel | None = None) -> GenerationSettings:
        """The generation settings of ``model`` (None: the model served now), for what a
        request leaves out: the same as the window answers with — its preset, else the chat
        defaults with the sampling the model recommends."""
        model = model or self.served.served
        if model is None:
            return self.ctx.settings.chat.generation()
        return self.ctx.settings.chat_for(model.preset, self.served.sampling_of(model)).generation()


def state_of(request: Request) -> ServerState:
    """The server's state, from a route's request."""
    state: ServerState = request.app.state.server
    return state
