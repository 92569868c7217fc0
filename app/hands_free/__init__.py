"""Hands-free mode: the chat heard and answered aloud, each answer spoken sentence by sentence
while it streams."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.hands_free.spoken_answer import SpokenAnswer
    from app.hands_free.turns import (
        HandsFreeSession,
        Services,
        TurnEvent,
        TurnOptions,
        TurnStatus,
    )

_WHERE = {
    "SpokenAnswer": "app.hands_free.spoken_answer:SpokenAnswer",
    "Services": "app.hands_free.turns:Services",
    "HandsFreeSession": "app.hands_free.turns:HandsFreeSession",
    "TurnEvent": "app.hands_free.turns:TurnEvent",
    "TurnOptions": "app.hands_free.turns:TurnOptions",
    "TurnStatus": "app.hands_free.turns:TurnStatus",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = ["HandsFreeSession", "Services", "SpokenAnswer", "TurnEvent", "TurnOptions", "TurnStatus"]
__getattr__ = lazy_exports(__name__, _WHERE)
