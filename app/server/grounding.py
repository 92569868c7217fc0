"""Answers grounded in a knowledge collection over the API (OV Studio's ``knowledge`` field).

A request naming a collection has its last user message grounded as the chat window grounds
a question (:func:`app.knowledge.grounding.grounded_question`): the best passages of the
collection (:meth:`KnowledgeService.search`, hybrid and reranked when a reranker is set) that
clear the relevance floor (the ``relevance_floor`` setting), as many as fit
:data:`~app.knowledge.grounding.SOURCES_SHARE` of the context left after the messages and the
answer's room, numbered so the answer cites them as ``[1]``. With none clearing the floor, the
question goes alone and ``sources`` is empty.

The answer carries ``sources``, a top-level field beside ``choices``: one object per passage
the model was given — ``number`` (as cited), ``collection``, ``document`` (file name),
``path``, ``page`` (PDF page or null), ``score``, ``relevance`` (0…1), ``text`` (the passage, cut to
:data:`MAX_EXCERPT_CHARS`) and ``snippet`` (the matching words marked «like this»). A
streamed answer sends them in its first chunk (the one with the assistant role), so a client
can show them while the answer streams.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import anyio

from app.chat import BatchingEngine, Message
from app.core import DatabaseError, ModelMissingError, UserError
from app.knowledge import PASSAGES_PER_ANSWER, SOURCES_SHARE, Source, grounded_question
from app.server.errors import ApiError
from app.server.state import ServerState

log = logging.getLogger(__name__)

#: The context assumed when a model's is unknown (a folder without ``max_position_embeddings``).
FALLBACK_CONTEXT_TOKENS = 2048
#: A source's ``text``: the passage the model read, cut to this many characters.
MAX_EXCERPT_CHARS = 1000


async def ground(
    state: ServerState,
    engine: BatchingEngine,
    collection: str | None,
    messages: list[Message],
    answer_tokens: int | None,
) -> tuple[list[Message], list[dict[str, Any]] | None]:
    """``messages`` with the last user message grounded in ``collection``, and the sources
    (None when the request names no collection).

    Raises:
        ApiError: 404 no such collection (naming those there are), 400 an empty collection or
            no user message last, 503 knowledge unavailable (the database cannot start).
    """
    if collection is None:
        return messages, None
    name = " ".join(collection.split())
    if not messages or messages[-1].role != "user" or not messages[-1].content.strip():
        raise ApiError(
            400,
            "A request with 'knowledge' needs a user message with text last.",
            param="messages",
        )
    return await anyio.to_thread.run_sync(
        _ground_blocking, state, engine, name, messages, answer_tokens
    )


def _ground_blocking(
    state: ServerState,
    engine: BatchingEngine,
    name: str,
    messages: list[Message],
    answer_tokens: int | None,
) -> tuple[list[Message], list[dict[str, Any]]]:
    knowledge = state.ctx.knowledge
    question = messages[-1].content
    try:
        found = {c.name: c for c in knowledge.collections()}
        chosen = found.get(name)
        if chosen is None:
            names = ", ".join(f"'{n}'" for n in sorted(found)) or "none"
            raise ApiError(
                404,
                f"There is no knowledge collection '{name[:100]}'; collections: {names}.",
                param="knowledge",
                code="collection_not_found",
            )
        if chosen.documents == 0:
            raise ApiError(
                400, f"The collection '{chosen.name}' has no documents yet.", param="knowledge"
            )
        hits = knowledge.search(chosen.name, question, PASSAGES_PER_ANSWER)
    except (DatabaseError, ModelMissingError) as error:
        log.warning("knowledge unavailable: %s", error)
        raise ApiError(
            503,
            "Knowledge is not available on this server: its database or embedding model "
            "could not start (the server's log says why).",
            param="knowledge",
        ) from error
    except UserError as error:  # e.g. indexed with another embedding model
        raise ApiError(400, str(error), param="knowledge") from error
    count = engine.count_tokens
    context = state.served.context_tokens or FALLBACK_CONTEXT_TOKENS
    answer = answer_tokens or state.default_answer_tokens()
    fixed = count(engine.template(messages))
    rules = knowledge.grounding_rules()
    room = min(int(max(context - answer - fixed, 0) * SOURCES_SHARE), rules.most_tokens(count))
    grounding = grounded_question(question, hits, count, room, rules)
    passages = {(hit.path, hit.page, hit.snippet): hit.text for hit in hits}
    given = [
        _source_json(name, source, passages.get((source.path, source.page, source.snippet), ""))
        for source in grounding.sources
    ]
    return [*messages[:-1], Message("user", grounding.question)], given


def _source_json(collection: str, source: Source, passage: str) -> dict[str, Any]:
    excerpt = passage.strip()
    if len(excerpt) > MAX_EXCERPT_CHARS:
        excerpt = excerpt[:MAX_EXCERPT_CHARS].rstrip() + "…"
    return {
        "number": source.number,
        "collection": collection,
        "document": Path(source.path).name,
        "path": source.path,
        "page": source.page,
        "lines": list(source.lines) if source.lines is not None else None,
        "score": source.score,
        "relevance": source.relevance,
        "text": excerpt,
        "snippet": source.snippet,
    }


async def with_sources(
    chunks: AsyncIterator[str], sources: Sequence[dict[str, Any]] | None
) -> AsyncIterator[str]:
    """The stream's chunks, its first one (the role chunk) carrying ``sources``."""
    first = True
    try:
        async for chunk in chunks:
            if first and sources is not None:
                first = False
                data = json.loads(chunk)
                data["sources"] = list(sources)
                chunk = json.dumps(data)
            yield chunk
    finally:
        await _close(chunks)  # a client gone: the inner stream cancels its request


async def _close(chunks: AsyncIterator[str]) -> None:
    close = getattr(chunks, "aclose", None)
    if close is not None:
        await close()
