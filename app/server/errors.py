"""Errors in the shape each API's clients expect, and never a traceback.

OpenAI clients read ``{"error": {"message", "type", "param", "code"}}``; Ollama clients read
``{"error": "message"}``; Anthropic clients read ``{"type": "error", "error": {"type",
"message"}}``. Which one a request gets follows its path (``/api/…`` is Ollama's,
``/v1/messages…`` Anthropic's).
A malformed body (not JSON, not UTF-8, a wrong type, an unknown value) is a 400 with one
sentence naming the field; only a bug of ours is a 500, and even then the body is one sentence
(the traceback goes to the log).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core import BusyError
from pipelines.core import InvalidInputError, PipelineError

log = logging.getLogger(__name__)

OLLAMA_PREFIX = "/api/"
#: Anthropic's Messages API (``/v1/messages``, ``/v1/messages/count_tokens``).
ANTHROPIC_PREFIX = "/v1/messages"
#: The answer to a body not declared JSON.
NOT_JSON = "Send the body as JSON (Content-Type: application/json)."

#: OpenAI's error ``type`` for each status we send.
_OPENAI_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    409: "conflict_error",
    413: "invalid_request_error",
    415: "invalid_request_error",
    429: "rate_limit_error",
    500: "server_error",
    503: "server_error",
}

#: Anthropic's error ``type`` for each status we send (https://docs.claude.com/en/api/errors).
_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    409: "conflict_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "overloaded_error",
}


class ApiError(Exception):
    """A request we refuse: its HTTP status and one sentence (plus OpenAI's param and code)."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        retry_after_s: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param
        self.code = code
        self.retry_after_s = retry_after_s
        """Seconds after which trying again may succeed (``Retry-After``: OpenAI's and most
        HTTP clients wait that long before they retry a 503)."""


def error_response(
    request: Request, status: int, message: str, param: str | None = None, code: str | None = None
) -> JSONResponse:
    """``message`` as ``request``'s API shapes its errors."""
    return error_for_path(request.url.path, status, message, param, code)


def error_for_path(
    path: str, status: int, message: str, param: str | None = None, code: str | None = None
) -> JSONResponse:
    """``message`` as the API serving ``path`` shapes its errors."""
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if path.startswith(OLLAMA_PREFIX):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    if is_anthropic_path(path):
        return JSONResponse(anthropic_error(status, message), status_code=status, headers=headers)
    body = {
        "error": {
            "message": message,
            "type": _OPENAI_TYPES.get(status, "invalid_request_error"),
            "param": param,
            "code": code,
        }
    }
    return JSONResponse(body, status_code=status, headers=headers)


def is_anthropic_path(path: str) -> bool:
    """Whether ``path`` is under Anthropic's Messages API."""
    return path == ANTHROPIC_PREFIX or path.startswith(ANTHROPIC_PREFIX + "/")


def anthropic_error(status: int, message: str) -> dict[str, Any]:
    """``message`` as Anthropic's error body (also a stream's ``error`` event); its ``type``
    follows ``status`` (other 4xx are ``invalid_request_error``, as Anthropic says)."""
    kind = _ANTHROPIC_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message}}


def describe_validation(errors: Sequence[Any]) -> tuple[str, str | None]:
    """The first validation error as one sentence, and the field it names."""
    if not errors:
        return "The request body is not valid.", None
    first = errors[0]
    kind = str(first.get("type", ""))
    location = [str(part) for part in first.get("loc", ()) if part != "body"]
    field = ".".join(location) or None
    if kind == "json_invalid":
        return "The request body is not valid JSON.", None
    if kind == "missing" and field:
        return f"'{field}' is required.", field
    if kind == "extra_forbidden" and field:
        return f"'{field}' is not a known field.", field
    reason = str(first.get("msg", "is not valid")).rstrip(".")
    if field:
        return f"'{field}': {reason[0].lower() + reason[1:] if reason else 'not valid'}.", field
    return f"The request body is not valid: {reason}.", None


def declares_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` header names JSON (``application/json``, ``…+json``)."""
    if not content_type:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


def install_error_handlers(app: FastAPI) -> None:
    """Every error a route can raise answered in its API's shape."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        response = error_response(request, error.status, error.message, error.param, error.code)
        if error.retry_after_s is not None:
            response.headers["Retry-After"] = str(error.retry_after_s)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_body(request: Request, error: RequestValidationError) -> JSONResponse:
        content_type = request.headers.get("content-type", "")
        multipart = content_type.lower().startswith("multipart/form-data")  # uploads' routes
        if request.method == "POST" and not multipart and not declares_json(content_type):
            # FastAPI reads only a body declared JSON: curl's default form type, or no type,
            # would otherwise be "input should be a valid dictionary", which hides the cause.
            return error_response(request, 415, NOT_JSON)
        message, field = describe_validation(error.errors())
        return error_response(request, 400, message, field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        message = str(error.detail) if error.detail else "The request was refused."
        if error.status_code == 404 and message == "Not Found":
            message = f"There is no route {request.method} {request.url.path}."
        elif error.status_code == 400 and message == "There was an error parsing the body":
            message = "The request body is not valid JSON text (it must be UTF-8)."
        elif error.status_code == 405:
            message = f"{request.url.path} does not take {request.method}."
        return error_response(request, error.status_code, message)

    @app.exception_handler(InvalidInputError)  # app.core.errors.UserError too (the same class)
    async def invalid_input(request: Request, error: InvalidInputError) -> JSONResponse:
        # A model busy with another job: 429, which OpenAI clients retry after a pause.
        status = 429 if isinstance(error, BusyError) else 400
        return error_response(request, status, str(error), error.field or None)

    @app.exception_handler(PipelineError)
    async def pipeline_error(request: Request, error: PipelineError) -> JSONResponse:
        log.warning("%s %s failed: %s", request.method, request.url.path, error)
        return error_response(request, 503, str(error), error.field or None)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return error_response(request, 500, "The server failed on this request; see its log.")
