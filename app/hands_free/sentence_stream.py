"""Sentences of an answer while it streams: each one handed over as soon as it is complete.

The chat model streams a few characters at a time; speech starts at the first complete
sentence instead of at the end of the answer. The rules are those of
:func:`pipelines.voice.sentences.split_sentences` — the same cleaning
(:func:`~pipelines.voice.sentences.clean_text`), a sentence ends at ``. ! ? …`` (a closing
quote or bracket stays with it) followed by a space, a line break ends one too, and none is
longer than :data:`~pipelines.voice.sentences.MAX_SENTENCE_CHARS` — plus what a stream and a
listener need:

- an end is sure only once the space after it has arrived ("3.5" is not cut after "3.");
- a few abbreviations ("e.g.", "Dr.") and initials ("J. Smith") do not end a sentence;
- markdown marks are not read (emphasis, code marks, headings, bullets, links → their text),
  as the chat's plain text drops them;
- a long first sentence is handed over in two parts, cut at a clause break (else a space)
  near :data:`~pipelines.voice.sentences.LEAD_CHARS`, so the first audio comes early;
- a run-on sentence is handed over in pieces as it grows, not held until it ends.

Text is cleaned a word at a time (up to the last space received), so every character is
cleaned once however long the line grows.
"""

from __future__ import annotations

import re

from pipelines.voice.sentences import (
    LEAD_CHARS,
    MAX_SENTENCE_CHARS,
    clean_text,
    cut_long,
    has_words,
)

# In cleaned text (single spaces): an end mark, an optional closing quote/bracket, a space.
_END = re.compile(r"[.!?…][\"')\]]? ")
_END_AT_TAIL = re.compile(r"[.!?…][\"')\]]?$")
_CLAUSE_BREAK = re.compile(r"[,;:—–] ")
_LINE_MARK = re.compile(r"^\s*(?:#{1,6}|[-*+>]|\d{1,3}[.)]|```\S*)(?=\s|$)")
_LINK_TARGET = re.compile(r"\]\(\S*?\)")
_MARKS = re.compile(r"!?\[|\]|[*`~]")
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "dr", "mr", "mrs", "ms", "st", "prof", "vs", "cf", "fig", "jr", "sr", "approx"}
)
"""Words whose final full stop does not end a sentence (compared lower-case)."""
MIN_PIECE_CHARS = 12
"""A lead is never cut shorter than this (a two-word piece sounds clipped)."""


class SentenceStream:
    """Feed text chunks as they stream; get back the sentences they completed.

    Not thread-safe: one producer (the chat's ``on_text`` thread) feeds it.
    """

    def __init__(self, *, max_chars: int = MAX_SENTENCE_CHARS, lead_chars: int = LEAD_CHARS):
        self._max_chars = max_chars
        self._lead_chars = lead_chars
        self._raw = ""
        """Received text of the current line not cleaned yet (after its last space)."""
        self._clean = ""
        """The current line's cleaned text so far."""
        self._used = 0
        """Characters of :attr:`_clean` already handed over."""
        self.count = 0
        """Sentences handed over so far."""

    def feed(self, chunk: str) -> list[str]:
        """Add streamed text; the sentences it completed, in order (often none)."""
        sentences: list[str] = []
        *complete_lines, self._raw = (self._raw + chunk).split("\n")
        for line in complete_lines:
            self._clean_up_to(line, len(line))
            sentences += self._take(final=True)
            self._next_line()
        space = max(self._raw.rfind(" "), self._raw.rfind("\t"))
        if space >= 0:
            self._clean_up_to(self._raw, space)
            self._raw = self._raw[space:]
            sentences += self._take(final=False)
        return sentences

    def finish(self) -> list[str]:
        """The end of the answer: whatever is left, as sentences."""
        self._clean_up_to(self._raw, len(self._raw))
        sentences = self._take(final=True)
        self._next_line()
        self._raw = ""
        return sentences

    # ----- inside ------------------------------------------------------------------------

    def _next_line(self) -> None:
        self._clean, self._used = "", 0

    def _clean_up_to(self, raw: str, end: int) -> None:
        """Clean ``raw[:end]`` (whole words: the cut is at a space) onto the line."""
        piece = raw[:end]
        if not self._clean:
            piece = _LINE_MARK.sub("", piece)
        piece = _MARKS.sub("", _LINK_TARGET.sub("", piece))
        self._clean = clean_text(f"{self._clean} {piece}")

    def _take(self, *, final: bool) -> list[str]:
        text, used = self._clean, self._used
        ends = [m.end() for m in _END.finditer(text, used) if not _abbreviated(text, m.start())]
        tail = _END_AT_TAIL.search(text, used)
        if final or (tail is not None and not _abbreviated(text, tail.start())):
            ends.append(len(text))  # every cleaned word was followed by a space or the end
        if ends:
            return self._hand_over(ends)
        pending = text[used:]
        if len(pending) > self._max_chars:
            return self._hand_over_run_on(cut_long(pending, self._max_chars)[:-1])
        if self.count == 0:
            return self._hand_over_lead(pending)
        return []

    def _hand_over(self, ends: list[int]) -> list[str]:
        sentences: list[str] = []
        start = self._used
        for end in ends:
            sentence = self._clean[start:end].strip()
            start = end
            pieces = cut_long(sentence, self._max_chars)
            sentences += [piece for piece in pieces if has_words(piece)]
        self._used = ends[-1]
        self.count += len(sentences)
        return sentences

    def _hand_over_run_on(self, pieces: list[str]) -> list[str]:
        """The finished pieces of a sentence too long to wait for (they lie end to end in the
        cleaned text, separated by one space or none)."""
        for piece in pieces:
            self._used += len(piece)
            if self._clean[self._used : self._used + 1] == " ":
                self._used += 1
        kept = [piece for piece in pieces if has_words(piece)]
        self.count += len(kept)
        return kept

    def _hand_over_lead(self, pending: str) -> list[str]:
        """The start of a long first sentence, cut at a clause break (else a space) near the
        lead target, once enough of it has arrived to know the rest is not tiny."""
        target = self._lead_chars
        if len(pending) <= target + 8:
            return []
        breaks = [
            m.end() - 1
            for m in _CLAUSE_BREAK.finditer(pending)
            if MIN_PIECE_CHARS <= m.end() <= min(target * 2, len(pending) - MIN_PIECE_CHARS)
        ]
        if not breaks and len(pending) >= target + MIN_PIECE_CHARS:
            # No clause break yet: a space near the target, rather than waiting for one.
            breaks = [
                m.start()
                for m in re.finditer(" ", pending)
                if MIN_PIECE_CHARS <= m.start() <= len(pending) - MIN_PIECE_CHARS
            ]
        if not breaks:
            return []
        cut = min(breaks, key=lambda at: abs(at - target))
        return self._hand_over([self._used + cut + 1])


def _abbreviated(text: str, mark: int) -> bool:
    """Whether the end mark at ``text[mark]`` closes an abbreviation or an initial."""
    if text[mark] != ".":
        return False
    word = text[:mark].rsplit(" ", 1)[-1].lstrip("(\"'[")
    if len(word) == 1 and word.isalpha() and word.isupper() and word != "I":
        return True
    return word.lower() in ABBREVIATIONS
