"""Versions of an answer: Regenerate keeps the earlier answers instead of overwriting them.

An answer (:class:`ChatMessage`) is the version on screen — the one the model reads as history —
and carries the others in ``versions``; ``version`` is its place among all of them. Switching
versions swaps which one is on screen; nothing is lost.
"""

from __future__ import annotations

from dataclasses import replace

from app.chat.messages import ChatMessage


def all_versions(answer: ChatMessage) -> list[ChatMessage]:
    """Every version of ``answer`` in order (oldest first), each without versions of its own."""
    shown = replace(answer, versions=[], version=0)
    at = min(max(answer.version, 0), len(answer.versions))
    return [*answer.versions[:at], shown, *answer.versions[at:]]


def with_earlier(new: ChatMessage, earlier: ChatMessage) -> ChatMessage:
    """``new`` shown as the last version, after every version of ``earlier``."""
    previous = all_versions(earlier)
    return replace(new, versions=previous, version=len(previous))


def choose(answer: ChatMessage, position: int) -> ChatMessage:
    """``answer`` with the version at ``position`` (0-based, clamped) on screen."""
    versions = all_versions(answer)
    position = min(max(position, 0), len(versions) - 1)
    chosen = versions.pop(position)
    return replace(chosen, versions=versions, version=position)


def drop_shown(answer: ChatMessage) -> ChatMessage | None:
    """``answer`` without the version on screen (the next one is shown); None if it was the
    only one."""
    versions = all_versions(answer)
    if len(versions) == 1:
        return None
    at = min(max(answer.version, 0), len(versions) - 1)
    del versions[at]
    at = min(at, len(versions) - 1)
    chosen = versions.pop(at)
    return replace(chosen, versions=versions, version=at)
