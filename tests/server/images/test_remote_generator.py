"""The Create panel's work on a remote endpoint: a second OV Studio server on loopback drawing
with the tiny random LCM (pictures of noise: sizes, seeds, modes and the gallery are checked),
and a hostile stand-in server for what an endpoint can do wrong — each one sentence, nothing
kept — and for Cancel, which must close the request while the server is still drawing."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import UserError
from app.core.model_choices import ModelChoices, Remote
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.remote_endpoints import RemoteEndpoint
from app.core.settings import Settings
from app.images import ImageRequest, ImageService, Mode, PictureOptions, Side, remote_generator
from app.images.remote_factory import remote_images_factory
from app.models.registry import ModelRegistry
from pipelines.core import Cancelled, CancelToken, Progress
from tests.app_process import models_env
from tests.images_endpoint import StandIn, images_answer, png_of, serve_stand_in
from tests.server.audio_serving import serve_models
from tests.server.conftest import CPU, RunningServer
from tests.waiting import wait_until

pytestmark = [pytest.mark.integration]


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, diffusion_model_dir: Path
) -> Iterator[RunningServer]:
    home = tmp_path_factory.mktemp("remote-images-home")
    running = serve_models(home, models_env(image_generation=diffusion_model_dir))
    yield next(running)
    running.close()


def _service(home: AppPaths, endpoint: RemoteEndpoint, key: str) -> ImageService:
    """An image service whose settings choose ``endpoint`` and install no model here."""
    choices = ModelChoices().with_placement(
        ModelTask.IMAGE_GENERATION, Remote(endpoint=endpoint.name)
    )
    settings = Settings(models=choices, remote_endpoints=[endpoint])
    return ImageService(
        settings,
        MetricsBus(),
        [CPU],
        ModelRegistry(home.model_registry, home.models_dir),
        home.gallery_dir,
        remote_factory=remote_images_factory(lambda: [endpoint], lambda name: key),
    )


def _endpoint(base_url: str, model: str = "gpt-image-1") -> RemoteEndpoint:
    return RemoteEndpoint(name="studio", base_url=base_url, model=model)


def test_a_second_studio_draws_and_the_gallery_keeps_the_endpoint(
    server: RunningServer, app_home: AppPaths
) -> None:
    service = _service(app_home, _endpoint(server.openai_url), server.token)
    assert service.runs_remotely()
    steps: list[Progress] = []
    created = service.text_to_image(
        ImageRequest("a lighthouse", width=96, height=64, steps=2, count=2, seed=11),
        picture_options=PictureOptions(on_progress=steps.append),
    )
    pictures = created.result.pictures
    assert [picture.shape for picture in pictures] == [(64, 96, 3)] * 2
    assert steps and steps[0].total is None and "studio" in steps[0].message  # indeterminate
    saved = created.saved
    assert len(saved) == 2 and saved[0].settings.endpoint == "studio"
    assert (saved[0].settings.seed, saved[0].settings.steps) == (11, 2)
    # The gallery reads the endpoint back after a restart (from the index and the PNG).
    again = ImageService(
        Settings(),
        MetricsBus(),
        [CPU],
        ModelRegistry(app_home.model_registry, app_home.models_dir),
        app_home.gallery_dir,
    )
    assert {item.settings.endpoint for item in again.gallery.items()} == {"studio"}
    # The same seed on the server draws the same picture: the seed was sent and honoured.
    same = service.text_to_image(
        ImageRequest("a lighthouse", width=96, height=64, steps=2, count=2, seed=11),
        picture_options=PictureOptions(save=False),
    )
    assert np.array_equal(same.result.pictures[0], pictures[0])


def test_a_random_seed_is_drawn_here_and_kept(server: RunningServer, app_home: AppPaths) -> None:
    service = _service(app_home, _endpoint(server.openai_url), server.token)
    created = service.text_to_image(
        ImageRequest("a fox", steps=1), picture_options=PictureOptions(save=False)
    )
    seed = created.result.settings.seed
    again = service.text_to_image(
        ImageRequest("a fox", steps=1, seed=seed), picture_options=PictureOptions(save=False)
    )
    assert np.array_equal(again.result.pictures[0], created.result.pictures[0])


def test_edits_inpainting_and_outpainting_go_to_the_edits_route(
    server: RunningServer, app_home: AppPaths
) -> None:
    service = _service(app_home, _endpoint(server.openai_url), server.token)
    picture = np.full((64, 64, 3), 120, dtype=np.uint8)
    mask = np.zeros((64, 64), dtype=np.uint8)
    mask[:, 32:] = 255
    options = PictureOptions(save=False)
    request = ImageRequest("a fox", steps=2, seed=5)
    redrawn = service.image_to_image(request, picture, picture_options=options)
    painted = service.inpaint(request, picture, mask, picture_options=options)
    extended = service.outpaint(request, picture, Side.RIGHT, 32, picture_options=options)
    assert redrawn.result.settings.mode is Mode.IMAGE_TO_IMAGE
    assert painted.result.settings.mode is Mode.INPAINTING
    # The server put the user's pixels back outside the white half of the mask.
    assert np.abs(painted.result.pictures[0][:, :24].astype(int) - 120).max() <= 2
    assert extended.result.pictures[0].shape[1] == 96


def test_a_wrong_key_and_a_missing_route_are_one_sentence(
    server: RunningServer, app_home: AppPaths
) -> None:
    wrong_key = _service(app_home, _endpoint(server.openai_url), "not-the-key")
    with pytest.raises(UserError, match=r"refused the API key \(401\)") as refused:
        wrong_key.text_to_image(ImageRequest("a fox", steps=1))
    assert refused.value.field == "device"
    no_api = _service(app_home, _endpoint(server.url), server.token)  # no /v1
    with pytest.raises(UserError, match="has no images API at /images/generations"):
        no_api.text_to_image(ImageRequest("a fox", steps=1))
    missing = _service(app_home, _endpoint(server.openai_url, "no-such-model"), server.token)
    with pytest.raises(UserError, match="has no model called “no-such-model”") as gone:
        missing.text_to_image(ImageRequest("a fox", steps=1))
    assert gone.value.field == "model"
    assert app_home.gallery_dir.exists() is False or not list(app_home.gallery_dir.glob("*.png"))


def test_an_unreachable_endpoint(app_home: AppPaths, closed_port: int) -> None:
    service = _service(app_home, _endpoint(f"http://127.0.0.1:{closed_port}/v1"), "")
    with pytest.raises(UserError, match=r"Cannot reach 127\.0\.0\.1:\d+"):
        service.text_to_image(ImageRequest("a fox"))


# -- a hostile stand-in ---------------------------------------------------------------------


@pytest.fixture
def stand_in() -> Iterator[tuple[StandIn, str]]:
    with serve_stand_in() as served:
        yield served


def test_ovms_fields_are_sent_and_its_bare_answer_is_kept(
    stand_in: tuple[StandIn, str], app_home: AppPaths
) -> None:
    state, url = stand_in
    state.body = images_answer(png_of(64, 48))
    service = _service(app_home, _endpoint(url, "OpenVINO/FLUX.1-schnell-int4-ov"), "k")
    created = service.text_to_image(ImageRequest("three cats", width=64, height=48, seed=7))
    path, content_type, body = state.received[0]
    sent = json.loads(body)
    assert path == "/v3/images/generations" and content_type == "application/json"
    assert sent["rng_seed"] == 7 and "seed" not in sent and "output_format" not in sent
    assert sent["size"] == "64x48" and sent["model"] == "OpenVINO/FLUX.1-schnell-int4-ov"
    settings = created.saved[0].settings
    # OVMS says nothing of its steps: 0 is "the endpoint's own", kept and read back.
    assert (settings.steps, settings.seed, settings.endpoint) == (0, 7, "studio")
    assert settings.model == "OpenVINO/FLUX.1-schnell-int4-ov"
    reread = ImageService(
        Settings(),
        MetricsBus(),
        [CPU],
        ModelRegistry(app_home.model_registry, app_home.models_dir),
        app_home.gallery_dir,
    )
    assert [item.settings.steps for item in reread.gallery.items()] == [0]
    mask = np.zeros((48, 64), dtype=np.uint8)
    mask[10:20, 10:20] = 255
    service.inpaint(ImageRequest("a dog"), np.zeros((48, 64, 3), np.uint8), mask)
    path, content_type, body = state.received[1]
    assert path == "/v3/images/edits" and content_type.startswith("multipart/form-data")
    assert b'name="mask"' in body and b'name="rng_seed"' in body


@pytest.mark.parametrize(
    ("status", "body", "content_type", "sentence"),
    [
        (200, b"<html>hello</html>", "text/html", "not pictures"),
        (200, b'{"data": []}', "application/json", "not pictures"),
        (200, b'{"data": [{"b64_json": "not base64!"}]}', "application/json", "not pictures"),
        (200, images_answer(b"GIF89a but not really"), "application/json", "not pictures"),
        (200, images_answer(png_of(4096, 8)), "application/json", r"4096×8 pixels; the app takes"),
        (
            200,
            images_answer(png_of(8, 8), png_of(8, 8)),
            "application/json",
            "not pictures",
        ),  # 1 asked
        (404, b'{"error": "Model with requested name is not found"}', "", "has no model called"),
        (400, b'{"error": "Unhandled parameter: style"}', "", r"error \(400\): Unhandled param"),
        (500, b"<html>" + b"x" * 5000 + b"</html>", "text/html", r"error \(500\): no reason"),
        (429, b"{}", "application/json", "busy with another picture"),
    ],
)
def test_a_hostile_answer_is_one_sentence_and_nothing_is_kept(
    stand_in: tuple[StandIn, str],
    app_home: AppPaths,
    status: int,
    body: bytes,
    content_type: str,
    sentence: str,
) -> None:
    state, url = stand_in
    state.status, state.body, state.content_type = status, body, content_type or "application/json"
    service = _service(app_home, _endpoint(url), "")
    with pytest.raises(UserError, match=sentence):
        service.text_to_image(ImageRequest("a fox"))
    assert service.gallery.items() == []


def test_an_answer_past_the_bound_is_not_read(
    stand_in: tuple[StandIn, str], app_home: AppPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(remote_generator, "MAX_PICTURE_BYTES", 1000)
    state, url = stand_in
    state.body = images_answer(png_of(64, 64)) + b" " * 70_000
    with pytest.raises(UserError, match="sent more than the pictures asked for can take"):
        _service(app_home, _endpoint(url), "").text_to_image(ImageRequest("a fox"))


def test_cancel_closes_the_request_while_the_server_draws(
    stand_in: tuple[StandIn, str], app_home: AppPaths
) -> None:
    state, url = stand_in
    state.hang = True
    service = _service(app_home, _endpoint(url), "")
    cancel = CancelToken()
    failures: list[BaseException] = []

    def draw() -> None:
        try:
            service.text_to_image(
                ImageRequest("a fox"), picture_options=PictureOptions(cancel=cancel)
            )
        except BaseException as error:  # noqa: BLE001 - the test reads what was raised
            failures.append(error)

    worker = threading.Thread(target=draw)
    worker.start()
    wait_until(lambda: bool(state.received), what="the request reaches the stand-in")
    cancel.cancel()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert len(failures) == 1 and isinstance(failures[0], Cancelled)
    assert state.gone.wait(30), "the server never saw the client hang up"
    assert service.gallery.items() == []


@pytest.fixture
def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port
