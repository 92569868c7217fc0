"""The panels in the main window's navigation, each built from what the window holds.

The window holds the app context; a panel receives only the services it uses, the settings
signals, the task runner and the notification bar.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from app.context import AppContext
from app.knowledge import SECRETS_FILE
from ui.avatar import AvatarPanel
from ui.chat.panel import ChatPanel
from ui.chat.panel_services import ChatPanelServices
from ui.create import CreatePanel
from ui.knowledge import KnowledgePanel
from ui.settings_signals import SettingsSignals
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.voice import VoicePanel

PanelFactory = Callable[[AppContext, SettingsSignals, TaskRunner, NotificationBar], QWidget]
"""Builds a panel from what the window holds: the panel receives only what it uses."""


def chat_panel(
    ctx: AppContext, signals: SettingsSignals, tasks: TaskRunner, notifications: NotificationBar
) -> ChatPanel:
    """The Chat panel over the chat service and the services its parts use."""
    services = ChatPanelServices(
        chat=ctx.chat,
        knowledge=ctx.knowledge,
        tools=ctx.tools,
        voice=ctx.voice,
        avatar=ctx.avatar,
        speech_input=ctx.speech_input,
        metrics=ctx.metrics,
        models=ctx.models,
        devices=ctx.devices,
        secrets_file=ctx.paths.config / SECRETS_FILE,
        picture_text=ctx.picture_text,
    )
    return ChatPanel(services, signals, tasks, notifications)


def knowledge_panel(
    ctx: AppContext, signals: SettingsSignals, tasks: TaskRunner, notifications: NotificationBar
) -> KnowledgePanel:
    """The Knowledge panel over the knowledge service."""
    return KnowledgePanel(
        ctx.knowledge, ctx.models, ctx.paths, ctx.devices, signals, tasks, notifications
    )


def voice_panel(
    ctx: AppContext, signals: SettingsSignals, tasks: TaskRunner, notifications: NotificationBar
) -> VoicePanel:
    """The Voice panel over the voice service."""
    return VoicePanel(ctx.voice, ctx.devices, ctx.paths.spoken_dir, signals, tasks, notifications)


def avatar_panel(
    ctx: AppContext, signals: SettingsSignals, tasks: TaskRunner, notifications: NotificationBar
) -> AvatarPanel:
    """The Avatar panel over the avatar service (and the voices it speaks in)."""
    return AvatarPanel(
        ctx.avatar, ctx.voice, ctx.speech_input, ctx.devices, signals, tasks, notifications
    )


def create_panel(
    ctx: AppContext, signals: SettingsSignals, tasks: TaskRunner, notifications: NotificationBar
) -> CreatePanel:
    """The Create panel over the image service."""
    return CreatePanel(ctx.images, ctx.devices, signals, tasks, notifications)


#: The panels in the navigation, in order. A new panel is one more line here.
PANELS: list[tuple[str, PanelFactory]] = [
    ("Chat", chat_panel),
    ("Knowledge", knowledge_panel),
    ("Voice", voice_panel),
    ("Avatar", avatar_panel),
    ("Create", create_panel),
]
