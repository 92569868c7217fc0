"""The server put together from the app's context: its state, its token, its ASGI app."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from app.context import AppContext
from app.core import device_value_of
from app.models import ModelTask
from app.server.app import create_app
from app.server.openai_audio import remove_left_uploads
from app.server.served_models import ServedModels
from app.server.state import ServerState
from app.server.token import server_secrets, server_token


def build_server(ctx: AppContext, default_model: Path | None = None) -> tuple[FastAPI, ServerState]:
    """The app and its state; ``default_model`` (a path) is served when a request names none,
    else the server setting's model, else the chat's.

    Raises:
        StorageError: the token could not be stored.
    """
    token = server_token(server_secrets(ctx))  # made now: a storage error is said at start
    remove_left_uploads(ctx.paths.scratch_dir)  # a killed server's: nothing else removes them

    def default() -> Path | None:
        return (
            default_model
            or ctx.settings.server.model
            or ctx.settings.model_choice(ModelTask.CHAT).folder
        )

    served = ServedModels(
        ctx.models,
        ctx.engines,
        device=lambda: device_value_of(ctx.settings.model_choice(ModelTask.CHAT)),
        default=default,
        converted_cache=ctx.paths.converted_cache,
        grammar_guard=ctx.chat.grammar_guard,
        chat_turn=ctx.chat.answering_turn,
    )
    state = ServerState(ctx=ctx, served=served, token=token)
    app = create_app(state, cors_origins=ctx.settings.server.cors_origins)
    return app, state
