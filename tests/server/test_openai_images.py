"""``/v1/images/generations`` and ``/v1/images/edits`` with the official ``openai`` client on
the tiny random LCM (its pictures are noise: sizes, seeds, masks and refusals are checked)."""

from __future__ import annotations

import base64
import io
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import openai
import pytest
from PIL import Image

from app.images import ImageRequest, PictureOptions
from pipelines.core import Cancelled, CancelToken
from tests.app_process import models_env
from tests.server.audio_serving import client, serve_models
from tests.server.conftest import RunningServer
from tests.waiting import wait_until

pytestmark = [pytest.mark.integration]


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, diffusion_model_dir: Path
) -> Iterator[RunningServer]:
    home = tmp_path_factory.mktemp("images-home")
    running = serve_models(home, models_env(image_generation=diffusion_model_dir))
    yield next(running)
    running.close()


def _pictures(answer: openai.types.ImagesResponse) -> list[Image.Image]:
    assert answer.data is not None
    return [Image.open(io.BytesIO(base64.b64decode(item.b64_json or ""))) for item in answer.data]


def _png(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


def test_generations_give_seeded_pngs_that_carry_their_settings(server: RunningServer) -> None:
    api = client(server)
    answer = api.images.generate(
        model="gpt-image-1",
        prompt="a lighthouse at dusk",
        n=2,
        size="100x60",
        extra_body={"seed": 11, "num_inference_steps": 2},
    )
    pictures = _pictures(answer)
    assert [picture.size for picture in pictures] == [(96, 64)] * 2  # rounded to the model
    settings = json.loads(pictures[0].text["ov-studio"])
    assert (settings["seed"], settings["steps"], settings["prompt"]) == (
        11,
        2,
        "a lighthouse at dusk",
    )
    again = _pictures(
        api.images.generate(
            prompt="a lighthouse at dusk",
            n=2,
            size="96x64",
            extra_body={"seed": 11, "num_inference_steps": 2},
        )
    )
    assert pictures[0].tobytes() == again[0].tobytes()  # the same seed draws the same
    assert server.ctx.images.gallery.items() == []  # the server's pictures are not the user's


def test_the_models_size_and_other_formats(server: RunningServer) -> None:
    answer = client(server).images.generate(
        prompt="a fox", size="auto", output_format="jpeg", extra_body={"num_inference_steps": 2}
    )
    [picture] = _pictures(answer)
    assert picture.format == "JPEG" and picture.size == (64, 64)


def test_an_edit_repaints_the_transparent_part_of_the_mask(server: RunningServer) -> None:
    source = np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8)
    mask = np.dstack([source, np.full((64, 64), 255, np.uint8)])
    mask[:, 40:, 3] = 0  # the right part cut out: repaint it
    answer = client(server).images.edit(
        image=("source.png", _png(source), "image/png"),
        mask=("mask.png", _png(mask), "image/png"),
        prompt="a cat",
        extra_body={"num_inference_steps": 2, "seed": 1},
    )
    [picture] = _pictures(answer)
    edited = np.asarray(picture.convert("RGB"))
    assert np.array_equal(edited[:, :30], source[:, :30])  # far from the hole: untouched
    assert not np.array_equal(edited[:, 44:], source[:, 44:])
    assert json.loads(picture.text["ov-studio"])["mode"] == "inpainting"


def test_an_edit_without_a_mask_redraws_the_picture(server: RunningServer) -> None:
    source = np.full((64, 96, 3), 90, np.uint8)
    answer = client(server).images.edit(
        image=("source.png", _png(source), "image/png"),
        prompt="a cat",
        extra_body={"num_inference_steps": 4, "strength": 0.5},
    )
    [picture] = _pictures(answer)
    settings = json.loads(picture.text["ov-studio"])
    assert picture.size == (96, 64)
    assert (settings["mode"], settings["strength"]) == ("image-to-image", 0.5)


@pytest.mark.parametrize(
    ("call", "status", "param", "words"),
    [
        (
            lambda api: api.images.generate(prompt="a", response_format="url"),
            400,
            "response_format",
            "pictures come back as b64_json",
        ),
        (
            lambda api: api.images.generate(prompt="a", model="midjourney"),
            404,
            "model",
            "There is no model 'midjourney' for pictures",
        ),
        (lambda api: api.images.generate(prompt="a", size="0x0"), 400, "size", "0×0 is not"),
        (
            lambda api: api.images.generate(prompt="a", size="huge"),
            400,
            "size",
            "write it as WIDTHxHEIGHT",
        ),
        (
            lambda api: api.images.generate(prompt="x" * 5000),
            400,
            "prompt",
            "The prompt is 5,000 characters long",
        ),
        (lambda api: api.images.generate(prompt="a", n=50), 400, "n", "'n'"),
        (
            lambda api: api.images.edit(image=("a.png", b"not a picture", "image/png"), prompt="a"),
            400,
            "image",
            "a.png is not a picture that can be read",
        ),
        (
            lambda api: api.images.edit(
                image=("a.png", _png(np.zeros((64, 64, 3), np.uint8)), "image/png"),
                mask=("m.png", _png(np.zeros((64, 64), np.uint8)), "image/png"),
                prompt="a",
            ),
            400,
            "mask",
            "The mask is empty",
        ),
    ],
)
def test_refusals_are_one_sentence_with_their_field(
    server: RunningServer, call: object, status: int, param: str, words: str
) -> None:
    with pytest.raises(openai.APIStatusError) as refused:
        call(client(server))  # type: ignore[operator]
    assert refused.value.status_code == status
    body = refused.value.body
    assert isinstance(body, dict)
    assert body.get("param") == param
    assert words in str(body.get("message"))


def test_a_client_that_hangs_up_cancels_its_picture(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The service is held at its start until the server has seen the client go: the picture
    # then stops before its first step (no race: each side waits for the other's sign).
    tokens: list[CancelToken] = []
    outcome: list[str] = []
    release = threading.Event()
    real = server.ctx.images.text_to_image

    def held(request: ImageRequest, *, picture_options: PictureOptions) -> object:
        tokens.append(picture_options.cancel)  # type: ignore[arg-type]
        release.wait(120)
        try:
            real(request, picture_options=picture_options)
        except Cancelled:
            outcome.append("cancelled")
            raise
        outcome.append("drawn")
        return None

    monkeypatch.setattr(server.ctx.images, "text_to_image", held)
    address = urlsplit(server.url)
    body = json.dumps({"prompt": "a fox", "num_inference_steps": 20}).encode()
    head = (
        f"POST /v1/images/generations HTTP/1.1\r\nHost: {address.netloc}\r\n"
        f"Authorization: Bearer {server.token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection((address.hostname, address.port), timeout=60) as sock:
        sock.sendall(head.encode() + body)
        wait_until(lambda: bool(tokens), "the picture to start")
    wait_until(lambda: tokens[0].cancelled, "the server to see the client go")
    release.set()
    wait_until(lambda: bool(outcome), "the picture to end")
    assert outcome == ["cancelled"]
