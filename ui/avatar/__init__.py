"""The Avatar panel: a face and speech in, a lip-synced video out."""

from ui.avatar.panel import AvatarPanel

__all__ = ["AvatarPanel"]
