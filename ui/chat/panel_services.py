"""What the Chat panel and its parts use: each feature's service, named (no app context)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.avatar import AvatarService
from app.chat import ChatService, PictureText
from app.core import DeviceInfo, MetricsBus
from app.hands_free import Services
from app.knowledge import KnowledgeService
from app.mcp import ToolService
from app.models import ModelRegistry
from app.speech import SpeechInputService
from app.voice import VoiceService


@dataclass(frozen=True)
class ChatPanelServices:
    """The services the Chat panel is built over (the window fills it from its context)."""

    chat: ChatService
    """Conversations, the model and its answers."""
    knowledge: KnowledgeService
    """The collections a conversation may search."""
    tools: ToolService
    """The MCP tools a conversation may call."""
    voice: VoiceService
    """Answers read aloud; the voices spoken answers use."""
    avatar: AvatarService
    """Answers spoken by the avatar."""
    speech_input: SpeechInputService
    """Dictation and spoken turns."""
    metrics: MetricsBus
    """Where a spoken conversation reports its timings."""
    models: ModelRegistry
    """The installed models the pickers list."""
    devices: list[DeviceInfo]
    """What the models may run on."""
    secrets_file: Path
    """Where the remote endpoints' keys are kept."""
    picture_text: PictureText
    """The text in an attached picture (*Read the text*)."""

    def spoken(self) -> Services:
        """What a hands-free conversation uses."""
        return Services(self.chat, self.speech_input, self.voice, self.metrics, self.avatar)
