"""What broken answers of a real model look like, measured: glued words, answers that do not end.

With OpenVINO GenAI's repetition penalty at 1.1 — it penalises every token of the prompt and of
the answer, the chat template's end-of-turn token included — SmolLM2-135M's long answers ran
out of unpenalised words and broke into fragments glued without spaces
("…AUZMAGARANDALADravidarcadarralaba…AmsterdamamericaAmerica…"), and its short answers did not
end: the median answer to a one-line question was 116 tokens (25 at penalty 1.0) and one in
five ran to the 512-token limit (README, "Generation settings").

The real-model tests of the chat panel and of the server ask :data:`ESSAYS` (long answers that
reach the limit) and each of :data:`FACTS` twice, at the app's defaults with random seeds, and
judge them all together with :func:`problems`, whose limits sit between the two settings'
measured answers: resampling those (20,000 draws) a run at penalty 1.0 failed 0.03% of the
time on the median and 0.05% on runaways, one at 1.1 failed 97% of the time on the median.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

ESSAYS = (
    "Write a long essay about the history of Australia.",
    "Explain in detail how the internet works.",
    "Write a detailed guide to growing tomatoes at home.",
    "Describe the water cycle in detail, step by step.",
)
"""Prompts whose answers run to 512 tokens: where the glue showed."""

FACTS = (
    "What is the capital of Australia?",
    "What is the capital of Japan?",
    "What is the largest ocean on Earth?",
    "How many days are in a week?",
    "What is the chemical symbol for gold?",
    "What is the boiling point of water in degrees Celsius?",
    "What is the freezing point of water in degrees Celsius?",
    "How many legs does a spider have?",
)
"""One-line questions SmolLM2 answers in a sentence or two at sound settings (asked twice)."""

GLUED_LETTERS = 18
"""A "word" longer than this is glued fragments: English words this long are rare
("internationalization" is 20, and one now and then stays far under :data:`MAX_GLUED_SHARE`)."""
MAX_GLUED_SHARE = 0.02
"""The share of all letters written that may sit in such words. A 135M model at penalty 1.0
now and then loops into one glued run ("homemadeemadebread…": 5% of one essay in 78), which
stays under it over all the answers; the penalty's glue (18–74% of 4 essays in 46) does not.
An exact loop ("…computercomputer…", 14% of one run's letters before the engines ended loops:
:mod:`pipelines.repetition`) now stops within about 220 characters."""
MAX_MEDIAN_FACT_TOKENS = 80
"""The median short answer: 25 tokens at penalty 1.0, 116 at 1.1."""
MAX_RUNAWAYS = 3
"""Short answers that may run to the length limit: a small model loops now and then (7% of
one-line answers at penalty 1.0; 21% at 1.1)."""

_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+")
"""A word of Latin letters. Glue is words run together where spaces belong; scripts written
without spaces (a sampled answer of the English-trained SmolLM2 now and then drifts into
Chinese or Japanese and loops there, cut at the length limit) are no glue: such an answer
counts as a runaway (:data:`MAX_RUNAWAYS`), not as a glued word of hundreds of letters."""


@dataclass(frozen=True)
class Written:
    """One answer as a test got it."""

    prompt: str
    text: str
    tokens: int
    cut: bool
    """It stopped at the length limit (the engine's finish reason), not by itself."""


def glued_letters(text: str) -> tuple[int, int]:
    """Letters of ``text`` in words longer than :data:`GLUED_LETTERS`, and all its letters."""
    words = _WORD.findall(text)
    return sum(len(word) for word in words if len(word) > GLUED_LETTERS), sum(map(len, words))


def problems(answers: list[Written]) -> list[str]:
    """What is wrong with ``answers`` taken together, one line each (none: they are sound)."""
    found: list[str] = []
    glued = sum(glued_letters(answer.text)[0] for answer in answers)
    letters = sum(glued_letters(answer.text)[1] for answer in answers) or 1
    if glued / letters > MAX_GLUED_SHARE:
        worst = max(answers, key=lambda answer: glued_letters(answer.text)[0])
        longest = max(_WORD.findall(worst.text), key=len)
        found.append(
            f"{glued / letters:.1%} of all letters are in glued words, e.g. {worst.prompt!r}: "
            f"{longest[:60]!r}"
        )
    facts = [answer for answer in answers if answer.prompt in FACTS]
    if facts:
        median = statistics.median(answer.tokens for answer in facts)
        if median > MAX_MEDIAN_FACT_TOKENS:
            found.append(f"the median answer to a one-line question is {median:g} tokens")
        runaways = [answer for answer in facts if answer.cut]
        if len(runaways) > MAX_RUNAWAYS:
            tails = "; ".join(f"{a.prompt!r}: …{a.text[-60:]!r}" for a in runaways)
            found.append(f"{len(runaways)} of {len(facts)} short answers ran on: {tails}")
    return found
