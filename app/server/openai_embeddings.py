"""OpenAI's ``POST /v1/embeddings``, answered by the knowledge embedder.

There is one embedding model: the one the Knowledge panel uses (the bundled all-MiniLM-L6-v2
unless the user chose another; set up on first use, :mod:`app.server.embedder_setup`).
``model`` may name it (its id, as in the answer's ``model``, or its folder's name), be empty,
or be any of OpenAI's embedding names (``text-embedding-…``, so clients written for OpenAI
work unchanged): all of them get the app's embedder, and the answer's ``model`` says which it
is. Any other name is a 404 naming it.

Vectors are unit length (cosine = dot product), identical to what knowledge search computes.
Texts longer than the model's window (128 tokens by default) are truncated to it, as in
indexing; ``usage.prompt_tokens`` counts the tokens that were embedded. Token-id arrays are
refused, and so is a ``dimensions`` other than the model's own (the model cannot shorten its
vectors).
"""

from __future__ import annotations

import base64
import functools
from pathlib import Path
from typing import Any, Literal

import anyio
import numpy as np
from fastapi import APIRouter, Request
from pydantic import Field

from app.knowledge import Vectors, model_id
from app.models import embedding_length
from app.server.errors import ApiError
from app.server.schema import Lenient, TextRoute
from app.server.state import state_of

router = APIRouter(prefix="/v1", route_class=TextRoute)

MAX_INPUTS = 2048
"""Texts per request (OpenAI's own limit)."""
MAX_INPUT_CHARS = 32_000
"""Characters per text: about OpenAI's 8,192 tokens; the model reads far fewer anyway."""
OPENAI_PREFIX = "text-embedding-"


class EmbeddingRequest(Lenient):
    input: str | list[str] | list[int] | list[list[int]]
    model: str | None = Field(None, max_length=256)
    encoding_format: Literal["float", "base64"] = "float"
    dimensions: int | None = None
    user: str | None = None


@router.post("/embeddings")
async def embeddings(request: Request, body: EmbeddingRequest) -> dict[str, Any]:
    """Vectors of one text or a list of texts."""
    state = state_of(request)
    texts = _texts(body.input)
    await state.embedder_setup.ready()  # a fresh profile: the bundled embedder, set up once
    knowledge = state.ctx.knowledge
    folder = knowledge.embedder_folder()
    name = model_id(folder)
    _check_model(body.model, name, folder)
    vectors = await anyio.to_thread.run_sync(knowledge.embed_texts, texts)
    dim = int(vectors.shape[1])
    if body.dimensions is not None and body.dimensions != dim:
        raise ApiError(
            400,
            f"'dimensions' must be {dim}: {name} makes {dim}-dimensional vectors only.",
            param="dimensions",
        )
    state.requests += 1
    window = embedding_length(folder, state.ctx.settings.chunk_tokens)
    tokens = sum(min(count, window) for count in _token_counts(folder, texts))
    return {
        "object": "list",
        "data": [
            {"object": "embedding", "index": index, "embedding": _encoded(vector, body)}
            for index, vector in enumerate(vectors)
        ],
        "model": name,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


def _texts(value: str | list[str] | list[int] | list[list[int]]) -> list[str]:
    """The request's texts, each checked (a 400 names the first bad one)."""
    texts = [value] if isinstance(value, str) else value
    if not texts:
        raise ApiError(400, "'input' must have at least one text.", param="input")
    if not all(isinstance(text, str) for text in texts):
        raise ApiError(
            400, "'input' token arrays are not supported; send the texts.", param="input"
        )
    if len(texts) > MAX_INPUTS:
        raise ApiError(
            400, f"'input' has {len(texts)} texts; at most {MAX_INPUTS} a request.", param="input"
        )
    checked: list[str] = []
    for index, text in enumerate(texts):
        assert isinstance(text, str)
        if not text.strip():
            raise ApiError(400, f"'input[{index}]' is empty.", param="input")
        if len(text) > MAX_INPUT_CHARS:
            raise ApiError(
                400,
                f"'input[{index}]' has {len(text):,} characters; at most {MAX_INPUT_CHARS:,}.",
                param="input",
            )
        checked.append(text)
    return checked


def _check_model(requested: str | None, name: str, folder: Path) -> None:
    """Refuse a model name that is neither the embedder's nor one of OpenAI's."""
    if not requested or requested in (name, folder.name) or requested.startswith(OPENAI_PREFIX):
        return
    raise ApiError(
        404,
        f"There is no embedding model '{requested}'; this server embeds with {name}.",
        param="model",
        code="model_not_found",
    )


def _encoded(vector: Vectors, body: EmbeddingRequest) -> list[float] | str:
    if body.encoding_format == "base64":
        # OpenAI's base64 is the little-endian float32 bytes of the vector.
        return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")
    return [float(x) for x in vector]


@functools.lru_cache(maxsize=4)
def _tokenizer(tokenizer_file: Path) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_truncation()
    tokenizer.no_padding()  # MiniLM's tokenizer.json pads every input to 128
    return tokenizer


def _token_counts(folder: Path, texts: list[str]) -> list[int]:
    """Tokens of each text with the model's special tokens (0 each without a tokenizer.json:
    the count is for the caller's bookkeeping, not worth refusing the request)."""
    file = folder / "tokenizer.json"
    if not file.is_file():
        return [0] * len(texts)
    return [len(encoding.ids) for encoding in _tokenizer(file).encode_batch(texts)]
