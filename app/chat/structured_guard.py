"""The app's grammar guard: a JSON answer's grammar is tried in a separate process first.

The static budget (:mod:`app.core.schema_budget`) refuses in milliseconds what it can see is
too costly; what it cannot see (a tokenizer three times SmolLM2's, a shape no rule foresaw) is
caught by :class:`pipelines.grammar_guard.GrammarGuard`, which compiles each new grammar once
in a child process under the limits of the ``json_grammar`` settings and keeps the verdicts in
the app's cache. One guard serves the window, the command line and the server: the chat
pipelines and the serving engine ask it before they hand a grammar to GenAI.
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.paths import AppPaths
from app.core.settings import JsonGrammarLimits
from app.core.texts import tr
from pipelines.grammar_guard import GrammarGuard, refusal_sentence
from pipelines.grammar_probe import ProbeLimits, Verdict

WALL_FACTOR = 5
"""The probe's time limit on the clock is this many times its CPU limit, plus
:data:`WALL_SLACK_S`: 12 CPU seconds of compile took 45 s on a busy 2-core machine."""
WALL_SLACK_S = 60


def grammar_guard(paths: AppPaths, limits: Callable[[], JsonGrammarLimits]) -> GrammarGuard:
    """The guard for this app: verdicts under ``paths``' cache, ``limits`` read at each check."""
    return GrammarGuard(
        paths.grammar_verdicts,
        lambda: probe_limits(limits()),
        describe=refusal,
        scratch=paths.scratch_dir,
    )


def probe_limits(settings: JsonGrammarLimits) -> ProbeLimits:
    """The probe's limits from the settings."""
    return ProbeLimits(
        memory_bytes=settings.memory_mb * 2**20,
        cpu_seconds=float(settings.cpu_seconds),
        wall_seconds=float(settings.cpu_seconds * WALL_FACTOR + WALL_SLACK_S),
    )


def refusal(verdict: Verdict) -> str:
    """The sentence for a grammar the guard refused (translatable, shown next to the schema)."""
    if verdict.outcome == "memory":
        megabytes = round(verdict.limit / 2**20)
        size = f"{megabytes / 1024:g} GB" if megabytes >= 1024 else f"{megabytes} MB"
        return tr(
            "This JSON schema would take more than {size} of memory to enforce; simplify it."
        ).format(size=size)
    if verdict.outcome == "cpu":
        return tr(
            "This JSON schema would take more than {seconds} s of processor time to enforce; "
            "simplify it."
        ).format(seconds=f"{verdict.limit:g}")
    if verdict.outcome == "timeout":
        return tr(
            "Trying this JSON schema took longer than {seconds} s; try again when the computer "
            "is less busy, or simplify the schema."
        ).format(seconds=f"{verdict.limit:g}")
    if verdict.outcome == "refused":
        return refusal_sentence(verdict.detail)
    return tr("Trying this JSON schema crashed the process that tried it; simplify the schema.")
