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


def build_server(
    ctx: AppContext,
    default_model: Path | None = None,
    *,
    share_window_model: bool = False,
    no_token_on_loopback: bool | None = None,
) -> tuple[FastAPI, ServerState]:
    """The app and its state; ``default_model`` (a path) is served when a request names none,
    else the server setting's model, else the chat's.

    ``no_token_on_loopback``: apps on this computer need no token while the server listens on
    loopback (None: the server setting's choice).

    ``share_window_model``: answer with the chat window's pipeline when the server serves the
    model the window has open (nothing loaded twice). Off in the product for now: the window
    sends GenAI a chat history and the server token ids, and requests mixing the two on one
    pipeline were seen running on without end (glued "AuAuAu…" answers, then timeouts behind
    them) in the full suite; the server loads an engine of its own, as before.

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
        chat_turn=ctx.chat.answering_turn if share_window_model else None,
    )
    state = ServerState(ctx=ctx, served=served, token=token)
    state.no_token_on_loopback = (
        ctx.settings.server.no_token_on_loopback
        if no_token_on_loopback is None
        else no_token_on_loopback
    )
    app = create_app(state, cors_origins=ctx.settings.server.cors_origins)
    return app, state
