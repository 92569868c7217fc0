"""The Voice panel: voices from a clip, text spoken in them, played and saved as wav."""

from ui.voice.panel import VoicePanel

__all__ = ["VoicePanel"]
