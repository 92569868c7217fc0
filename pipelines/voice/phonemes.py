"""English text → Kokoro's phoneme tokens, through the espeak-ng program.

**Why a separate program.** espeak-ng is GPLv3; the app calls it as a program (text on stdin,
never a shell, a timeout), which keeps the app's own licence free of it: the .deb depends on
the ``espeak-ng`` package, other builds say where to get it. Missing, it is one sentence
(:class:`~pipelines.core.ModelLoadError` with ``field="voice"``).

**Why a mapping.** Kokoro v1.0 was trained on *misaki*'s phoneme set, which writes the English
diphthongs and affricates as single symbols and drops length marks; espeak-ng writes IPA.
:data:`ESPEAK_TO_KOKORO` turns one into the other (the same correspondences misaki's own
espeak fallback uses, Apache-2.0):

============================  =========  =============================================
espeak-ng (``--tie=^``)        Kokoro     why
============================  =========  =============================================
``a^ɪ a^ʊ e^ɪ o^ʊ ɔ^ɪ``        I W A O Y  misaki's one-symbol diphthongs (eye, cow, day,
                                         go, boy)
``d^ʒ t^ʃ``                    ʤ ʧ        one-symbol affricates (judge, church)
``ʔn̩ ʔˌn̩ ʔn`` / ``ʔ``          tᵊn / t    the glottal stop of "button" is said as t
``ə^l``, ``X̩`` (syllabic)      ᵊl, ᵊX     misaki's syllabic schwa
``ɚ`` / ``ɜː(ɹ)`` / ``ɪə``     əɹ/ɜɹ/iə   rhotic vowels as American misaki writes them
``r x ç ɐ ɬ``                  ɹ k k ə l  symbols Kokoro's English voices never saw
``ː ʲ`` nasal tilde, ``^``     (dropped)  length, palatal and tie marks
``o`` (espeak < 1.52)          ɔ          "four" is fˈɔɹ, as newer espeak-ng writes it
============================  =========  =============================================

Any symbol still outside the model's vocabulary is dropped (counted in
:attr:`Phonemes.dropped`). espeak-ng drops punctuation, which Kokoro reads as pauses and
intonation, so the text is cut into clauses at punctuation, the clauses are phonemised in one
call (one line each) and the punctuation is put back between them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from pipelines.core import InvalidInputError, ModelLoadError, PipelineError

ESPEAK_PROGRAM = "espeak-ng"
ESPEAK_TIMEOUT_S = 10.0
LANGUAGES = ("en-us", "en-gb")
MAX_PHONEMES = 510
"""Kokoro's context is 512 tokens, two of them the pads around a sequence."""
# Ordered: longer patterns before the shorter ones they contain.
ESPEAK_TO_KOKORO: tuple[tuple[str, str], ...] = (
    ("ʔˌn\u0329", "tᵊn"),
    ("ʔn\u0329", "tᵊn"),
    ("ʔn", "tᵊn"),
    ("ʔ", "t"),
    ("a^ɪ", "I"),
    ("a^ʊ", "W"),
    ("e^ɪ", "A"),
    ("o^ʊ", "O"),
    ("ɔ^ɪ", "Y"),
    ("d^ʒ", "ʤ"),
    ("t^ʃ", "ʧ"),
    ("ə^l", "ᵊl"),
    ("ʲ", ""),
    ("\u0303", ""),
    ("ɚ", "əɹ"),
    ("r", "ɹ"),
    ("x", "k"),
    ("ç", "k"),
    ("ɐ", "ə"),
    ("ɬ", "l"),
    ("e", "A"),
    ("ɜːɹ", "ɜɹ"),
    ("ɜː", "ɜɹ"),
    ("ɪə", "iə"),
    ("ː", ""),
    ("o", "ɔ"),
    ("^", ""),
)
_SYLLABIC = re.compile("(\\S)\u0329")
CLAUSE_MARKS = ",.;:!?—…"
# A clause ends at punctuation followed by a space or the end ("3.50" and "e.g" stay whole).
_CLAUSE_END = re.compile(f"([{CLAUSE_MARKS}]+)(?=\\s|$)")
_PHONEME_CLAUSE = re.compile(f"[^{CLAUSE_MARKS}]+[{CLAUSE_MARKS}]*|[{CLAUSE_MARKS}]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Phonemes:
    """One piece of text as Kokoro reads it."""

    text: str
    """Kokoro's phoneme string (every symbol in the vocabulary)."""
    tokens: tuple[int, ...]
    """Its token ids, without the pads."""
    dropped: int = 0
    """Symbols espeak-ng wrote that Kokoro has no token for."""


def find_espeak() -> str | None:
    """The path of the espeak-ng program, or None when it is not installed."""
    return shutil.which(ESPEAK_PROGRAM)


def check_script(text: str) -> None:
    """Refuse text whose letters are all of a script an English voice cannot read (CJK,
    Cyrillic, Arabic…): said in one sentence rather than spoken as "Chinese letter".

    Raises:
        InvalidInputError: ``field="text"``.
    """
    letters = [char for char in text if char.isalpha()]
    if letters and not any(_is_latin(char) for char in letters):
        raise InvalidInputError(
            "This voice reads English: the text has no Latin letters it can pronounce.",
            field="text",
        )


def _is_latin(char: str) -> bool:
    return unicodedata.name(char, "").startswith("LATIN")


def speakable(text: str) -> str:
    """``text`` with what espeak-ng must never see removed: control characters, its phoneme
    brackets ``[[ ]]``, and letters of other scripts (which it would spell out by name)."""
    text = unicodedata.normalize("NFC", _CONTROL.sub(" ", text)).replace("[[", " ")
    text = text.replace("]]", " ")
    kept = [
        char
        for char in text
        if not char.isalpha() or _is_latin(char) or unicodedata.category(char) == "Lm"
    ]
    # Control and format characters, emoji and other pictographs (So, Sk) go; currency and
    # maths signs stay: espeak-ng reads "$5" as "five dollars".
    kept = [char for char in kept if not _unsayable_category(unicodedata.category(char))]
    return " ".join("".join(kept).split())


def _unsayable_category(category: str) -> bool:
    return category[0] == "C" or category in ("So", "Sk")


def to_kokoro(ipa: str) -> str:
    """espeak-ng's IPA (written with ``--tie=^``) in Kokoro's symbols (see the module table)."""
    for old, new in ESPEAK_TO_KOKORO[:12]:
        ipa = ipa.replace(old, new)
    ipa = _SYLLABIC.sub("ᵊ\\1", ipa).replace("\u0329", "")
    for old, new in ESPEAK_TO_KOKORO[12:]:
        ipa = ipa.replace(old, new)
    return ipa


class Phonemizer:
    """Text → :class:`Phonemes` for one vocabulary and accent.

    Args:
        vocab: Kokoro's symbol → token id map.
        language: ``en-us`` or ``en-gb`` (espeak-ng's voice names).
        program: the espeak-ng program (default: found on ``PATH``).

    Raises:
        ModelLoadError: espeak-ng is not installed (``field="voice"``).
        ValueError: another language.
    """

    def __init__(
        self, vocab: Mapping[str, int], *, language: str = "en-us", program: str | None = None
    ) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}, not {language!r}")
        found = program or find_espeak()
        if found is None:
            raise ModelLoadError(
                "Kokoro reads text through the espeak-ng program, which is not installed: "
                "install espeak-ng (on Debian or Ubuntu: apt install espeak-ng).",
                field="voice",
            )
        self.vocab = dict(vocab)
        self.language = language
        self.program = found

    def phonemize(self, text: str) -> Phonemes:
        """One sentence (or any short text) as Kokoro's phonemes, punctuation kept.

        Raises:
            PipelineError: espeak-ng failed or did not answer within the timeout.
        """
        split = _CLAUSE_END.split(speakable(text))  # words, marks, words, marks, …, words
        pairs = zip(split[0::2], [*split[1::2], ""], strict=True)
        clauses = [(words.strip(), marks) for words, marks in pairs if words.strip() or marks]
        spoken = self._espeak([words for words, _ in clauses if words])
        parts: list[str] = []
        for words, marks in clauses:
            ipa = to_kokoro(spoken.pop(0)) if words else ""
            parts.append(f"{ipa}{marks}".strip())
        joined = " ".join(" ".join(part for part in parts if part).split())
        kept = "".join(symbol for symbol in joined if symbol in self.vocab)
        dropped = len(joined) - len(kept)
        kept = " ".join(kept.split())
        return Phonemes(kept, tuple(self.vocab[symbol] for symbol in kept), dropped)

    def _espeak(self, clauses: list[str]) -> list[str]:
        """espeak-ng's IPA for each clause: one call, one line per clause; if espeak-ng broke a
        clause itself (an abbreviation's full stop), one call per clause."""
        if not clauses:
            return []
        lines = self._run("\n".join(clauses))
        if len(lines) == len(clauses):
            return lines
        return [" ".join(self._run(clause)) for clause in clauses]

    def _run(self, text: str) -> list[str]:
        command = [self.program, "-q", "--ipa", "--tie=^", "-b", "1", "-v", self.language]
        try:
            done = subprocess.run(
                command,
                input=text.encode("utf-8"),
                capture_output=True,
                timeout=ESPEAK_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise PipelineError(
                f"espeak-ng did not read the text within {ESPEAK_TIMEOUT_S:.0f} s.", field="text"
            ) from None
        except OSError as error:
            raise ModelLoadError(
                f"espeak-ng could not be started: {error.strerror or error}.", field="voice"
            ) from None
        if done.returncode != 0:
            reason = done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no reason"]
            raise PipelineError(
                f"espeak-ng failed (exit {done.returncode}): {reason[0][:200]}", field="voice"
            )
        output = done.stdout.decode("utf-8", "replace")
        return [" ".join(line.split()) for line in output.splitlines() if line.strip()]


def chunk_phonemes(phonemes: str, limit: int = MAX_PHONEMES) -> list[str]:
    """``phonemes`` cut into pieces of at most ``limit`` symbols: after punctuation where it can,
    else between words, else anywhere (pieces in order, none empty)."""
    phonemes = " ".join(phonemes.split())
    if len(phonemes) <= limit:
        return [phonemes] if phonemes else []
    units: list[str] = []  # clauses, or the words of a clause longer than the limit
    for clause in _PHONEME_CLAUSE.findall(phonemes):
        clause = clause.strip()
        if len(clause) <= limit:
            units.append(clause)
            continue
        for word in clause.split(" "):
            units.extend(word[start : start + limit] for start in range(0, len(word), limit))
    pieces: list[str] = []
    current = ""
    for unit in filter(None, units):
        candidate = f"{current} {unit}" if current else unit
        if len(candidate) <= limit:
            current = candidate
        else:
            pieces.append(current)
            current = unit
    if current:
        pieces.append(current)
    return pieces
