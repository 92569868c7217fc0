"""What a new chat offers to start with: three prompts suited to what the loaded model can do,
and the other ways in that work on this install.

A text model gets three questions it can answer on its own (a small one too: each was tried
on SmolLM2-135M at the app's defaults). A model that reads images gets "describe a picture"
and "read the text in an image", which attach an image first; a chat with tools gets "what
can your tools do?" and "use <tool>", which leaves the box for the user to finish. Beyond the
three: "ask about your documents" (knowledge) when the chat does not use it yet, and "talk to
it" when a speech-to-text model and a microphone are there.

The choice is plain data (:func:`starters`); :mod:`ui.chat.new_chat` shows and runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ui.i18n import tr

STARTER_COUNT = 3
"""How many prompts a new chat offers (besides documents and talking)."""


class Action(Enum):
    """What choosing a starter does besides putting its prompt in the box."""

    SEND = "send"  # the prompt is complete: sent at once
    FILL = "fill"  # the user finishes it: it waits in the box
    ATTACH_IMAGE = "attach-image"  # an image is picked first; the prompt waits with it
    USE_KNOWLEDGE = "use-knowledge"  # the chat answers from a knowledge collection
    DICTATE = "dictate"  # the microphone opens


@dataclass(frozen=True)
class Abilities:
    """What the loaded model and this install can do in the chat on screen."""

    vision: bool = False
    """The model reads images."""
    tools: tuple[str, ...] = ()
    """The names of the tools this chat allows (the model may call them)."""
    knowledge: bool = True
    """Asking about documents is offered (the chat does not use a collection yet)."""
    listening: bool = False
    """A speech-to-text model and a microphone are there: the user can talk."""


@dataclass(frozen=True)
class Starter:
    """One way to start: the button's words and icon, and what choosing it does."""

    title: str
    prompt: str
    action: Action
    icon: str


def text_starters() -> list[Starter]:
    """Questions any chat model answers on its own."""
    return [
        Starter(
            tr("Explain how a rainbow forms"),
            tr("Explain how a rainbow forms, in simple words."),
            Action.SEND,
            "lightbulb-on-outline",
        ),
        Starter(
            tr("Name three planets"),
            tr("Name three planets in our solar system."),
            Action.SEND,
            "earth",
        ),
        Starter(
            tr("Give me tips for staying focused"),
            tr("Give me three tips for staying focused."),
            Action.SEND,
            "format-list-checks",
        ),
    ]


def vision_starters() -> list[Starter]:
    """For a model that reads images: an image is attached first."""
    return [
        Starter(
            tr("Describe a picture…"),
            tr("Describe this picture in detail."),
            Action.ATTACH_IMAGE,
            "image-search-outline",
        ),
        Starter(
            tr("Read the text in an image…"),
            tr("What does the text in this image say?"),
            Action.ATTACH_IMAGE,
            "text-recognition",
        ),
    ]


def tool_starters(tools: tuple[str, ...]) -> list[Starter]:
    """For a chat whose model may call ``tools``: what they do, and one of them put to use."""
    if not tools:
        return []
    return [
        Starter(
            tr("What can your tools do?"),
            tr("Which tools can you use, and what can each of them do for me?"),
            Action.SEND,
            "tools",
        ),
        Starter(
            tr("Use {tool}…").format(tool=tools[0]),
            tr("Use the {tool} tool to ").format(tool=tools[0]),
            Action.FILL,
            "hammer-wrench",
        ),
    ]


def other_ways(abilities: Abilities) -> list[Starter]:
    """Documents and talking, where they work."""
    ways: list[Starter] = []
    if abilities.knowledge:
        ways.append(
            Starter(
                tr("Ask about your documents"),
                "",
                Action.USE_KNOWLEDGE,
                "file-document-outline",
            )
        )
    if abilities.listening:
        ways.append(Starter(tr("Talk to it"), "", Action.DICTATE, "microphone"))
    return ways


def starters(abilities: Abilities) -> list[Starter]:
    """Three prompts for what the model can do (its own kind first), then the other ways."""
    prompts = [
        *(vision_starters() if abilities.vision else []),
        *tool_starters(abilities.tools),
        *text_starters(),
    ]
    return [*prompts[:STARTER_COUNT], *other_ways(abilities)]
