"""Images in chat messages over the API: the official ``openai`` client against a server
serving the tiny random LLaVA (``vlm-tiny``) through the batching engine, and a text-only
model refusing images. Random weights: the answers are checked for being there and counted,
not for their content."""

from __future__ import annotations

import base64
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import openai
import pytest

from tests.server.conftest import RunningServer, bomb_png, image_bytes

pytestmark = [pytest.mark.integration]


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.openai_url, api_key=server.token, max_retries=0)


def data_url(fmt: str = "PNG", size: tuple[int, int] = (64, 48)) -> str:
    kind = "jpeg" if fmt == "JPEG" else fmt.lower()
    return f"data:image/{kind};base64,{base64.b64encode(image_bytes(fmt, size)).decode()}"


def ask(url: str, text: str = "What is in this picture?") -> list[dict[str, Any]]:
    return [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": text},
                {"type": "image_url", "image_url": {"url": url}},
            ],
        }
    ]


def post(server: RunningServer, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{server.openai_url}/chat/completions", json=body, headers=server.auth, timeout=120
    )


def test_an_image_question_is_answered_with_usage(vision_server: RunningServer) -> None:
    answer = client(vision_server).chat.completions.create(
        model="",
        messages=ask(data_url()),  # type: ignore[arg-type]
        max_tokens=6,
        temperature=0,
    )
    assert answer.choices[0].finish_reason == "length"
    assert answer.usage is not None
    assert answer.usage.completion_tokens == 6
    assert answer.usage.prompt_tokens > 5
    engine = vision_server.state.served.engine
    assert engine is not None and engine.vision


def test_jpeg_streamed_and_text_only_requests_batch_together(
    vision_server: RunningServer,
) -> None:
    def streamed() -> str:
        stream = client(vision_server).chat.completions.create(
            model="",
            messages=ask(data_url("JPEG", (300, 20))),  # type: ignore[arg-type]
            max_tokens=5,
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = list(stream)
        assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 5
        return "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)

    def text_only() -> int:
        answer = client(vision_server).chat.completions.create(
            model="",
            messages=[{"role": "user", "content": "Hi <ov_genai_image_3> <image>"}],
            max_tokens=5,
        )
        assert answer.usage is not None
        return answer.usage.completion_tokens

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(streamed), pool.submit(text_only), pool.submit(streamed)]
        results = [f.result(timeout=300) for f in futures]
    assert results[1] == 5
    assert isinstance(results[0], str) and isinstance(results[2], str)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("https://example.com/cat.png", "only data: URLs"),
        ("file:///etc/passwd", "only data: URLs"),
        ("data:image/png,notbase64", "not a base64 data: URL"),
        ("data:image/png;base64,@@@@", "base64 data is not valid"),
        (f"data:image/png;base64,{base64.b64encode(b'not an image at all').decode()}", "read"),
        (f"data:image/png;base64,{data_url()[22:][:200]}", "damaged"),
    ],
)
def test_hostile_images_are_one_sentence_400s(
    vision_server: RunningServer, url: str, words: str
) -> None:
    response = post(vision_server, {"messages": ask(url), "max_tokens": 2})
    assert response.status_code == 400
    error = response.json()["error"]
    assert words in error["message"]
    assert error["message"].count(". ") == 0
    assert error["param"] == "messages.0.content"


def test_a_decompression_bomb_and_too_many_images_are_refused(
    vision_server: RunningServer,
) -> None:
    bomb = f"data:image/png;base64,{base64.b64encode(bomb_png()).decode()}"
    response = post(vision_server, {"messages": ask(bomb), "max_tokens": 2})
    assert response.status_code == 400
    assert "too many pixels" in response.json()["error"]["message"]

    many = ask(data_url())
    many[0]["content"] += [{"type": "image_url", "image_url": {"url": data_url()}}] * 10
    response = post(vision_server, {"messages": many, "max_tokens": 2})
    assert response.status_code == 400
    assert "at most 10 images" in response.json()["error"]["message"]


def test_a_text_only_model_refuses_images(server: RunningServer) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        client(server).chat.completions.create(
            model="",
            messages=ask(data_url()),  # type: ignore[arg-type]
            max_tokens=2,
        )
    message = refused.value.body["message"]  # type: ignore[index]
    assert "does not take images; serve a vision model" in message
