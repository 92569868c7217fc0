"""What the Create panel says about a finished picture and a recalled one."""

from __future__ import annotations

from app.images import ImageResult
from ui.i18n import tr, translated
from ui.numbers import decimal


def result_caption(result: ImageResult) -> str:
    """ "Seed 42 · 512×512 · 4 steps · guidance 8.5" (· "drawn on <endpoint>"), the count when
    several were made, and what changed on the way (a size rounded, a negative prompt not
    read)."""
    settings = result.settings
    parts = [tr("Seed {seed}").format(seed=settings.seed), f"{settings.width}×{settings.height}"]
    if settings.steps:  # 0: a remote endpoint's own, which it did not say
        parts.append(tr("{steps} steps").format(steps=settings.steps))
        parts.append(tr("guidance {scale}").format(scale=decimal(settings.guidance, 1)))
    if settings.endpoint:
        parts.append(tr("drawn on {endpoint}").format(endpoint=settings.endpoint))
    count = len(result.pictures)
    if count > 1:
        parts.append(tr("1 of {count}: all are in the gallery").format(count=count))
    lines = [" · ".join(parts)]
    lines.extend(translated(note) for note in result.notes)
    return "\n".join(lines)


def settings_restored(name: str, found: bool) -> str:
    """The line after a picture was dropped or reused."""
    if found:
        return tr("The settings of {name} are in the form.").format(name=name)
    return tr("{name} carries no settings: the form keeps its own.").format(name=name)


def stopped() -> str:
    """The line under the picture after Cancel."""
    return tr("Stopped: nothing was saved.")
