"""The Voice panel's speech lines: the outcome, the service's figures, what is missing."""

from __future__ import annotations

from app.voice import SpeechFigures
from ui.i18n import tr
from ui.numbers import count, decimal
from ui.voice.speech_runner import SpeechOutcome


def no_voice(encoder_missing: bool = False) -> str:
    """Why Speak cannot start with no voice (``encoder_missing``: and why none can be made)."""
    if encoder_missing:
        return tr(
            "Speaking needs a voice, and making one needs a speaker encoder first: convert it "
            "(left)."
        )
    return tr("Create a voice first: record or pick a clip of someone speaking (left).")


def metrics_text(figures: SpeechFigures, requested: str) -> str:
    """e.g. "RTF 0.21 · first audio 0.82 s · AUTO → CPU" (the service's figures, as they are)."""
    parts: list[str] = []
    if figures.real_time_factor is not None:
        parts.append("RTF " + decimal(figures.real_time_factor, 2))
    if figures.first_audio_seconds is not None:
        seconds = decimal(figures.first_audio_seconds, 2)
        parts.append(tr("first audio {seconds} s").format(seconds=seconds))
    if figures.device:
        same = requested.upper() == figures.device.upper()
        parts.append(figures.device if same else f"{requested} → {figures.device}")
    return " · ".join(parts)


def outcome_text(outcome: SpeechOutcome) -> str:
    """e.g. "Sentence 3/3 · 4.2 s", or "Stopped after sentence 2/3"."""
    done, total = count(len(outcome.pieces)), count(outcome.total)
    if outcome.stopped:
        return tr("Stopped after sentence {done}/{total}").format(done=done, total=total)
    return tr("Sentence {done}/{total} · {seconds} s").format(
        done=done, total=total, seconds=decimal(outcome.seconds, 1)
    )
