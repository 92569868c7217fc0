"""The order frames are played back and forth in when speech outlasts a video."""

from __future__ import annotations

from pipelines.lipsync.render import ping_pong


def testping_pong_order() -> None:
    assert ping_pong(4, 10) == [0, 1, 2, 3, 2, 1, 0, 1, 2, 3]
    assert ping_pong(1, 3) == [0, 0, 0]
    assert ping_pong(5, 3) == [0, 1, 2]
