"""The upscaler on tiny random RRDBNets converted by the app: tiles without seams, the same
picture as torch draws, Cancel between tiles, and big or wrong pictures refused first."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, ModelLoadError, Progress
from pipelines.images.upscaler import Upscaler, read_scale, tile_spans

pytestmark = pytest.mark.integration


def _photo(height: int, width: int, seed: int = 0) -> np.ndarray:
    """A picture with smooth areas, edges and fine noise (what a seam would show up on)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width]
    base = np.stack([x / width, y / height, ((x // 9 + y // 7) % 2) * 0.6], axis=-1) * 200
    return np.clip(base + rng.normal(0, 12, (height, width, 3)), 0, 255).astype(np.uint8)


def _difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a.astype(np.int16) - b.astype(np.int16))


@pytest.mark.parametrize(
    ("length", "tile", "overlap", "multiple"),
    [
        (260, 256, 16, 1),
        (1000, 256, 16, 2),
        (97, 32, 8, 1),
        (40, 256, 16, 2),
        (34, 8, 0, 2),
    ],
)
def test_tiles_cover_the_axis_once_with_equal_windows_inside_it(
    length: int, tile: int, overlap: int, multiple: int
) -> None:
    spans = tile_spans(length, tile, overlap, multiple)
    assert spans[0].start == 0 and spans[-1].stop == length
    assert all(a.stop == b.start for a, b in itertools.pairwise(spans))
    assert len({span.window for span in spans}) == 1
    for span in spans:
        assert span.stop - span.start <= tile
        assert span.window_start >= 0 and span.window_start + span.window <= length
        # Context on both sides, unless the picture ends there.
        assert span.start - span.window_start >= overlap or span.window_start == 0
        assert span.window_start + span.window - span.stop >= overlap or (
            span.window_start + span.window == length
        )
        if length % multiple == 0:
            assert span.start % multiple == 0 and span.window_start % multiple == 0


@pytest.mark.parametrize(("scale", "height", "width"), [(4, 150, 110), (2, 171, 133)])
def test_a_tiled_picture_matches_the_whole_one_and_shows_no_seam(
    upscale_models_dir: Path, scale: int, height: int, width: int
) -> None:
    picture = _photo(height, width)
    folder = upscale_models_dir / f"x{scale}"
    whole = Upscaler(folder, tile=1024).upscale(picture)
    tiles = Upscaler(folder, tile=48, overlap=16)
    tiled = tiles.upscale(picture)
    assert tiled.shape == whole.shape == (height * scale, width * scale, 3)
    assert tiles.metrics().values["tiles"] == 12  # 4 × 3 tiles, not one
    difference = _difference(tiled, whole)
    assert whole.std() > 20  # a picture, not a flat field the tiles would match anyway
    assert difference.max() <= 2 and difference.mean() < 0.05
    # The negative control: without context the tiles' edges differ, so the check can fail.
    seams = _difference(Upscaler(folder, tile=48, overlap=0).upscale(picture), whole)
    assert seams.max() > 10


def test_the_upscaled_picture_is_what_torch_draws(upscale_models_dir: Path) -> None:
    torch = pytest.importorskip("torch")
    from app.models.esrgan_torch import load_checkpoint

    network, _ = load_checkpoint(upscale_models_dir / "checkpoints" / "tiny_x4.pth")
    picture = _photo(40, 56, seed=3)
    with torch.no_grad():
        reference = network(torch.from_numpy(picture.transpose(2, 0, 1)[None] / 255.0).float())
    expected = np.clip(reference[0].numpy().transpose(1, 2, 0) * 255 + 0.5, 0, 255)
    got = Upscaler(upscale_models_dir / "x4").upscale(picture)
    difference = _difference(got, expected.astype(np.uint8))
    assert difference.max() <= 3 and difference.mean() < 1.0  # fp16 weights: close, not equal
    flipped = Upscaler(upscale_models_dir / "x4").upscale(np.ascontiguousarray(picture[..., ::-1]))
    assert _difference(flipped, expected.astype(np.uint8)).mean() > 5  # RGB, not BGR


def test_progress_counts_tiles_and_cancel_stops_between_them(upscale_models_dir: Path) -> None:
    upscaler = Upscaler(upscale_models_dir / "x2", tile=32, overlap=8)
    picture = _photo(64, 96)
    heard: list[Progress] = []
    upscaler.upscale(picture, on_progress=heard.append)
    assert [(p.stage, p.done, p.total) for p in heard] == [("upscale", n, 6) for n in range(7)]

    cancel, seen = CancelToken(), []

    def stop_after_two(progress: Progress) -> None:
        seen.append(progress.done)
        if progress.done == 2:
            cancel.cancel()

    with pytest.raises(Cancelled):
        upscaler.upscale(picture, cancel=cancel, on_progress=stop_after_two)
    assert seen == [0, 1, 2]


def test_a_picture_too_big_is_refused_before_the_model_loads(upscale_models_dir: Path) -> None:
    upscaler = Upscaler(upscale_models_dir / "x4", max_output_pixels=1000 * 1000)
    with pytest.raises(
        InvalidInputError,
        match=r"too big to upscale ×4: 300×260 would become "
        r"1,200×1,040 \(1 megapixels; at most 1\)",
    ) as raised:
        upscaler.upscale(np.zeros((260, 300, 3), np.uint8))
    assert raised.value.field == "image" and not upscaler.loaded
    with pytest.raises(InvalidInputError, match="RGB bytes"):
        upscaler.upscale(np.zeros((8, 8, 4), np.uint8))
    assert not upscaler.loaded


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (None, "missing or unreadable"),
        ("{not json", "missing or unreadable"),
        ({"scale": 3}, "no scale of 2 or 4"),
        ({"scale": True}, "no scale of 2 or 4"),
    ],
)
def test_a_folder_without_a_sound_config_is_refused(
    upscale_models_dir: Path, tmp_path: Path, config: object, message: str
) -> None:
    folder = tmp_path / "model"
    shutil.copytree(upscale_models_dir / "x4", folder)
    if config is None:
        (folder / "config.json").unlink()
    else:
        text = config if isinstance(config, str) else json.dumps(config)
        (folder / "config.json").write_text(text, encoding="utf-8")
    with pytest.raises(ModelLoadError, match=message):
        read_scale(folder)
    with pytest.raises(ModelLoadError, match=message):
        Upscaler(folder).upscale(_photo(8, 8))
