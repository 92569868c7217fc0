"""The FastAPI application: the routes of both APIs behind the guard, errors in their shapes."""

from __future__ import annotations

import time
from collections.abc import Sequence

from fastapi import APIRouter, FastAPI
from starlette.middleware.cors import CORSMiddleware

from app.core import app_version
from app.server import (
    anthropic_messages,
    ollama_api,
    ollama_models,
    openai_audio,
    openai_chat,
    openai_completions,
    openai_embeddings,
    openai_images,
    responses_api,
)
from app.server.errors import install_error_handlers
from app.server.guard import MAX_BODY_BYTES, Guard
from app.server.state import ServerState

#: Every API's routes; a module adds its router here.
ROUTERS: tuple[APIRouter, ...] = (
    openai_chat.router,
    openai_embeddings.router,
    openai_audio.router,
    openai_images.router,
    openai_completions.router,
    responses_api.router,
    ollama_models.router,
    ollama_api.router,
    anthropic_messages.router,
)


def create_app(
    state: ServerState,
    *,
    cors_origins: Sequence[str] = (),
    max_body_bytes: int = MAX_BODY_BYTES,
) -> FastAPI:
    """The server's ASGI app over ``state``.

    No CORS unless ``cors_origins`` names web origins: a page on another site must not be able
    to call the user's models from the user's browser. No OpenAPI pages either (they would
    answer without the token).
    """
    app = FastAPI(
        title="OV Studio",
        version=app_version(),
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
    )
    state.started = time.time()
    app.state.server = state
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    # Starlette runs the middleware added last first: the guard sees a request before CORS
    # (with CORS on, a preflight passes the guard, which has no token to check on it).
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
            # x-api-key carries the token as Anthropic's clients send it; they also send
            # anthropic-version with every request.
            allow_headers=["Authorization", "Content-Type", "X-Api-Key", "Anthropic-Version"],
        )
    app.add_middleware(
        Guard,
        token=lambda: state.token,
        max_body_bytes=max_body_bytes,
        cors_origins=cors_origins,
        token_optional_on_loopback=state.token_optional_on_loopback,
    )
    return app
