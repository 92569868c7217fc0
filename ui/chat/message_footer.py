"""What is written under an answer: its sources, its figures; and citation links in its text."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path

from app.chat import ChatMessage
from app.knowledge import Source
from ui.i18n import tr
from ui.knowledge.formatting import lines_text, relevance_text
from ui.numbers import count, milliseconds, percent, token_rate

CITATION = re.compile(r"\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]")
"""``[2]``, or several sources in one pair of brackets: ``[1, 2]``."""


def message_sources(message: ChatMessage) -> list[Source]:
    """The knowledge sources stored with an answer (malformed entries are skipped)."""
    sources: list[Source] = []
    for data in message.sources:
        try:
            sources.append(Source.from_dict(data))
        except (KeyError, TypeError, ValueError):
            continue
    return sources


def link_citations(markdown: str, index: int, numbers: set[int]) -> str:
    """Turn ``[2]`` (and each number of ``[1, 2]``) into a link to that source of message
    ``index``; only when every number in the brackets is a real source."""

    def link(match: re.Match[str]) -> str:
        cited = [int(number) for number in match.group(1).split(",")]
        if not all(number in numbers for number in cited):
            return match.group(0)
        return ", ".join(f"[\\[{number}\\]](source:{index}:{number})" for number in cited)

    return CITATION.sub(link, markdown)


def sources_line(sources: Sequence[Source], index: int, left_out: int = 0) -> str:
    """HTML links under an answer: "Sources: [1] guide.pdf, page 2 · [2] notes.md", and how
    many passages the relevance floor left out ("· 2 below the relevance floor left out")."""
    links = [
        f'<a href="source:{index}:{s.number}" title="{html.escape(_source_tip(s))}">'
        f"[{s.number}]&nbsp;{html.escape(source_label(s))}</a>"
        for s in sources
    ]
    line = html.escape(tr("Sources:")) + " " + " · ".join(links)
    if left_out:
        dropped = tr("%n below the relevance floor left out", "knowledge passages", left_out)
        line += " · " + html.escape(dropped)
    return line


def source_label(source: Source) -> str:
    """ "guide.pdf, page 2" in the user's language (:attr:`Source.label` is the model's,
    in English), or the file's name when it has no pages."""
    name = Path(source.path).name
    if source.lines is not None:
        return tr("{file}, {lines}").format(file=name, lines=lines_text(source.lines))
    if source.page is None:
        return name
    return tr("{file}, page {page}").format(file=name, page=count(source.page))


def not_grounded_line(left_out: int) -> str:
    """Said under an answer no passage was given to: every one found was below the floor."""
    return tr(
        "No passage matched this question well enough (%n below the relevance floor left "
        "out): this answer is not from your documents.",
        "",
        left_out,
    )


def _source_tip(source: Source) -> str:
    """The tooltip of a source: its path, and how well it matched when known."""
    if source.relevance is None:
        return source.path
    return f"{source.path} · {relevance_text(source.relevance, 0.0)}"


def stats_line(message: ChatMessage) -> str:
    """The line under an answer.

    Returns:
        e.g. "16 tokens · 230.4 tok/s · TTFT 12 ms · AUTO → CPU", with "80% of draft tokens
        accepted" after the rate for speculative decoding, plus " · stopped" when the answer
        was cut short.
    """
    metrics = message.metrics
    parts: list[str] = []
    if "output_tokens" in metrics:
        tokens = count(int(metrics["output_tokens"]))
        parts.append(tr("{count} tokens", "generated in an answer").format(count=tokens))
    if metrics.get("tokens_per_s"):
        parts.append(token_rate(float(metrics["tokens_per_s"])))
    if "draft_accepted" in metrics:  # speculative decoding: how well the draft model guessed
        accepted = percent(float(metrics["draft_accepted"]))
        parts.append(tr("{percent} of draft tokens accepted").format(percent=accepted))
    if "ttft_ms" in metrics:
        parts.append(tr("TTFT {ms}").format(ms=milliseconds(float(metrics["ttft_ms"]))))
    if message.device:
        parts.append(message.device)
    if message.stopped:
        parts.append(tr("stopped"))
    return " · ".join(parts)
