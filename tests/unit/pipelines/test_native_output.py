"""Native decoders print their complaints themselves; the app silences them where it reads a
user's file (pipelines/native_output.py)."""

from __future__ import annotations

import os
import threading

import cv2
import numpy as np
import pytest
from skimage import data

from pipelines.native_output import decode_image, quiet_native_output


def _encoded(suffix: str) -> bytes:
    ok, buffer = cv2.imencode(suffix, data.astronaut()[:, :, ::-1])
    assert ok
    return buffer.tobytes()


@pytest.mark.parametrize(
    ("suffix", "keep"),
    [(".png", 20), (".png", None), (".jpg", None)],
    ids=["png-header-only", "png-half", "jpg-damaged"],
)
def test_a_damaged_image_is_none_and_nothing_is_printed(
    capfd: pytest.CaptureFixture[str], suffix: str, keep: int | None
) -> None:
    whole = bytearray(_encoded(suffix))
    if suffix == ".jpg":
        whole[200:400] = bytes(b ^ 0x55 for b in whole[200:400])  # libjpeg: "Corrupt JPEG data"
        damaged = bytes(whole)
    else:
        damaged = bytes(whole[: keep or len(whole) // 2])  # libpng, then OpenCV's own [ERROR:
    capfd.readouterr()
    assert decode_image(np.frombuffer(damaged, np.uint8)) is None
    assert capfd.readouterr().err == ""


def test_a_good_image_decodes_and_the_console_is_back_afterwards(
    capfd: pytest.CaptureFixture[str],
) -> None:
    image = decode_image(np.frombuffer(_encoded(".png"), np.uint8))
    assert image is not None and image.shape == (512, 512, 3)
    os.write(2, b"still here\n")
    assert capfd.readouterr().err == "still here\n"


def test_overlapping_quiet_blocks_restore_the_console_once_the_last_ends(
    capfd: pytest.CaptureFixture[str],
) -> None:
    inside = threading.Event()
    leave = threading.Event()

    def other_thread() -> None:
        with quiet_native_output():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other_thread)
    with quiet_native_output():
        thread.start()
        assert inside.wait(10)
    os.write(2, b"lost\n")  # the other thread's block is still open
    leave.set()
    thread.join(10)
    os.write(2, b"shown\n")
    assert capfd.readouterr().err == "shown\n"
