"""Text for speech: cleaned, checked and cut into sentences that are synthesised one by one.

SpeechT5 reads characters (its vocabulary is letters, digits and punctuation) and attends over
the whole input, so long inputs get slow and unstable; sentence by sentence keeps every piece
short and lets playback start after the first one. Characters the model cannot say (emoji,
symbols, control characters) are dropped rather than spoken as "unknown" noise; accented
letters are reduced to their base letter.
"""

from __future__ import annotations

import re
import unicodedata

from pipelines.core import InvalidInputError

MAX_TEXT_CHARS = 10_000
MAX_SENTENCE_CHARS = 300
# End of sentence: . ! ? … (optionally followed by a closing quote or bracket, which stays
# with the sentence) and then space.
_SENTENCE_END = re.compile(r"(?:(?<=[.!?…])|(?<=[.!?…][\"')\]]))\s+")
_CLAUSE_BREAK = re.compile(r"(?<=[,;:—–])\s+")
_SAYABLE = re.compile(r"[^A-Za-z0-9 .,!?;:'\"()\-–—…%&$€£@/+=#*]")


def clean_text(text: str) -> str:
    """``text`` reduced to what the speech model can pronounce, whitespace collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(char for char in decomposed if not unicodedata.combining(char))
    kept = kept.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    kept = _SAYABLE.sub(" ", kept)
    return " ".join(kept.split())


def split_sentences(text: str, *, max_chars: int = MAX_SENTENCE_CHARS) -> list[str]:
    """Sentences of ``text`` in order, none longer than ``max_chars``.

    Raises:
        InvalidInputError: nothing sayable, or more than :data:`MAX_TEXT_CHARS` (``field="text"``).
    """
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidInputError(
            f"The text has {len(text):,} characters; up to {MAX_TEXT_CHARS:,} can be spoken at "
            "once. Split it into parts.",
            field="text",
        )
    sentences: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n", text):
        cleaned = clean_text(paragraph)
        if not has_words(cleaned):
            continue
        for sentence in _SENTENCE_END.split(cleaned):
            sentences.extend(cut_long(sentence.strip(), max_chars))
    sentences = [sentence for sentence in sentences if has_words(sentence)]
    if not sentences:
        if text.strip():
            raise InvalidInputError(
                "There is nothing in this text the voice can pronounce (only symbols or "
                "characters it does not know).",
                field="text",
            )
        raise InvalidInputError("Type something to say.", field="text")
    return sentences


LEAD_CHARS = 32
"""A first sentence longer than about this is said in two parts: playback starts after the
first part is synthesised (time to first audio grows with its length), while the rest of the
text synthesises behind it."""


def with_short_lead(sentences: list[str], *, target: int = LEAD_CHARS) -> list[str]:
    """``sentences`` with a long first sentence cut in two at a clause break or a word boundary
    near ``target`` characters (never leaving a piece under a dozen characters)."""
    if not sentences or len(sentences[0]) <= target + 8:
        return sentences
    first = sentences[0]
    breaks = [m.end() for m in re.finditer(r"[,;:—–]\s", first) if 12 <= m.end() <= target * 2]
    spaces = [m.start() for m in re.finditer(r" ", first) if 12 <= m.start() <= len(first) - 12]
    # A piece ending on "the", "to" or "and" is said with a falling close and a pause where
    # no speaker would stop: cut after a word that can end a phrase when there is one.
    phrase_ends = [at for at in spaces if _last_word(first[:at]) not in _NEVER_LAST]
    candidates = breaks or phrase_ends or spaces
    if not candidates:
        return sentences
    cut = min(candidates, key=lambda at: abs(at - target))
    return [first[:cut].strip(), first[cut:].strip(), *sentences[1:]]


_NEVER_LAST = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "of",
        "and",
        "or",
        "but",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "by",
        "as",
        "into",
        "than",
        "that",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "its",
        "is",
        "are",
        "was",
        "were",
        "be",
    ]
)


def _last_word(text: str) -> str:
    words = text.split()
    return words[-1].lower() if words else ""


def has_words(text: str) -> bool:
    """Whether ``text`` has a letter or digit (something to say)."""
    return any(char.isalnum() for char in text)


def cut_long(sentence: str, limit: int) -> list[str]:
    """A long sentence cut at clause breaks, then at spaces, then anywhere (pieces in order,
    none longer than ``limit``)."""
    if len(sentence) <= limit:
        return [sentence] if sentence else []
    pieces: list[str] = []
    current = ""
    for clause in _CLAUSE_BREAK.split(sentence):
        for word in clause.split(" "):
            while len(word) > limit:  # one unbroken run of characters
                if current:
                    pieces.append(current)
                    current = ""
                pieces.append(word[:limit])
                word = word[limit:]
            candidate = f"{current} {word}".strip()
            if len(candidate) > limit:
                pieces.append(current)
                current = word
            else:
                current = candidate
        if current and len(current) > limit * 2 // 3:
            pieces.append(current)  # a clause break is a good place to stop a long piece
            current = ""
    if current:
        pieces.append(current)
    return [piece for piece in pieces if piece]
