"""The spoken conversation: an answer spoken sentence by sentence while it streams."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.hands_free.turns import (
        Services,
        SpokenConversation,
        TurnEvent,
        TurnOptions,
        TurnStatus,
    )

_WHERE = {
    "Services": "app.hands_free.turns:Services",
    "SpokenConversation": "app.hands_free.turns:SpokenConversation",
    "TurnEvent": "app.hands_free.turns:TurnEvent",
    "TurnOptions": "app.hands_free.turns:TurnOptions",
    "TurnStatus": "app.hands_free.turns:TurnStatus",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = ["Services", "SpokenConversation", "TurnEvent", "TurnOptions", "TurnStatus"]
__getattr__ = lazy_exports(__name__, _WHERE)
