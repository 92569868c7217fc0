"""``ov-studio serve``: the OpenAI-, Anthropic- and Ollama-compatible server, headless.

It prints the address and the token, loads the default model (so the first request does not
wait for it), and serves until Ctrl+C or SIGTERM, which end the running streams and exit 0.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli.arguments import Commands
from app.cli.terminal import shown

if TYPE_CHECKING:  # the web stack is imported when serving starts, not with the CLI
    import socket

    from fastapi import FastAPI

    from app.server import Address, ServerState

log = logging.getLogger(__name__)


def add_serve_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``serve`` command."""
    serve = commands.add_parser(
        "serve",
        help="serve the models over OpenAI-, Anthropic- and Ollama-compatible HTTP APIs",
        description="Serves the installed models at http://HOST:PORT: OpenAI's API under /v1 "
        "(models, chat/completions, completions, responses, embeddings, audio/speech with your "
        "cloned voices, audio/transcriptions), Anthropic's Messages API at /v1/messages, and "
        "Ollama's under /api (tags, chat, generate, embed, version). Every request needs "
        "'Authorization: Bearer TOKEN' (or 'x-api-key: TOKEN'; programs on this computer too, "
        "unless --no-token-on-loopback); the token is printed at start and kept between runs "
        "(--new-token replaces it). Several clients stream at once. Only this machine can "
        "connect unless --lan is given. Ctrl+C stops it.",
    )
    serve.add_argument(
        "--host", help="address to listen on (default: the server setting, 127.0.0.1)"
    )
    serve.add_argument("--port", type=int, help="TCP port (default: the server setting, 8765)")
    serve.add_argument(
        "--model",
        type=Path,
        metavar="ID|PATH",
        help="chat model answering requests that name none: an installed model's id, a "
        "folder or a .gguf file (default: the server setting, else the chat's model)",
    )
    serve.add_argument(
        "--lan",
        action="store_true",
        help="let other machines connect (listens on 0.0.0.0 unless --host is given)",
    )
    serve.add_argument(
        "--new-token", action="store_true", help="replace the token (old clients stop working)"
    )
    serve.add_argument(
        "--no-token-on-loopback",
        action="store_true",
        help="let programs on this computer call without the token (Ollama clients send "
        "none); only while listening on loopback, never with --lan. Any program or web page "
        "script running on this computer can then use your models; pages are kept out by "
        "their Host and Origin headers (default: the server setting, off)",
    )
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Serve until interrupted; exit 0 then."""
    from app.context import AppContext
    from app.core import UserError
    from app.server import (
        Address,
        bind,
        build_server,
        is_loopback,
        new_server_token,
        server_secrets,
    )

    if args.port is not None and not 0 <= args.port <= 65_535:
        raise UserError(f"--port must be 0–65535, not {args.port}.", field="port")
    with AppContext.create() as ctx:
        server = ctx.settings.server
        host = args.host or ("0.0.0.0" if args.lan else server.host)
        port = server.port if args.port is None else args.port
        allow_lan = args.lan or server.allow_lan
        if not is_loopback(host) and not allow_lan:  # said before anything loads
            raise UserError(
                f"Listening on {host} lets other machines reach your models; "
                "add --lan to allow it.",
                field="host",
            )
        # Everything that can refuse (the model, the port) is checked before anything is
        # changed: a refused start must not have replaced the token clients use.
        model_path = _model_path(ctx, args.model)
        sock = bind(host, port, allow_lan=allow_lan)
        try:
            if args.new_token:
                new_server_token(server_secrets(ctx))
            app, state = build_server(
                ctx, model_path, no_token_on_loopback=args.no_token_on_loopback or None
            )
            try:
                _load_and_serve(app, state, Address(host, int(sock.getsockname()[1])), sock, out)
            finally:
                state.embedder_setup.cancel()
                state.served.close()
        finally:
            sock.close()
    return 0


def _load_and_serve(
    app: FastAPI, state: ServerState, address: Address, sock: socket.socket, out: TextIO
) -> None:
    """Say where the server is and its token, load the default model, serve until stopped."""
    from app.server import is_loopback, serve_forever

    try:
        model = state.served.resolve(None)
    except Exception:  # noqa: BLE001 - no model yet: requests will say so
        model = None
    out.write(f"OV Studio serves at {address.url} (OpenAI API: /v1, Ollama API: /api)\n")
    out.write(f"token: {state.token}\n")

    def say(line: str) -> None:  # the embedder's set-up on first use, from its thread
        out.write(line + "\n")
        out.flush()

    state.embedder_setup.on_line = say
    if state.no_token_on_loopback:
        out.write(
            "programs on this computer need no token (on loopback only)\n"
            if is_loopback(str(sock.getsockname()[0]))
            else "the no-token option is off: the server is reachable from the network\n"
        )
    if model is not None:
        out.write(f"loading {shown(model.id)}…\n")
        out.flush()
        state.served.engine_for(model)
        ready = f"serving {shown(model.id)}; Ctrl+C stops\n"
    else:
        ready = "no chat model is installed yet; Ctrl+C stops\n"
    out.flush()

    def say_ready() -> None:
        out.write(ready)
        out.flush()

    serve_forever(app, sock, say_ready)


def _model_path(ctx: object, given: Path | None) -> Path | None:
    """``--model`` as a path: an installed model's id names its folder."""
    if given is None:
        return None
    from app.context import AppContext
    from app.core import UserError

    assert isinstance(ctx, AppContext)
    expanded = given.expanduser()
    if expanded.exists():
        return expanded.resolve()
    for entry in ctx.models.models():
        if entry.id == str(given):
            return entry.folder
    raise UserError(f"--model {given}: no such file, folder or installed model id.", field="model")
