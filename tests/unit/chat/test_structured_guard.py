"""The grammar guard as chat builds it: its limits from the settings, its refusals as translatable
sentences."""

from __future__ import annotations

from app.chat.structured_guard import probe_limits, refusal
from app.core.settings import JsonGrammarLimits
from app.core.texts import Text
from pipelines.grammar_probe import Verdict
from tests.unit.pipelines.test_grammar_guard import MB


def test_the_refusals_are_translatable_sentences() -> None:
    memory = refusal(Verdict("memory", limit=1024 * MB))
    assert memory == (
        "This JSON schema would take more than 1 GB of memory to enforce; simplify it."
    )
    cpu = refusal(Verdict("cpu", limit=120.0))
    assert cpu == (
        "This JSON schema would take more than 120 s of processor time to enforce; simplify it."
    )
    crashed = refusal(Verdict("crashed", detail="exit code -11"))
    for sentence in (memory, cpu, crashed, refusal(Verdict("timeout", limit=660.0))):
        assert isinstance(sentence, Text) and "\n" not in sentence


def test_the_settings_give_the_probes_limits() -> None:
    limits = probe_limits(JsonGrammarLimits(memory_mb=512, cpu_seconds=30))
    assert limits.memory_bytes == 512 * MB and limits.cpu_seconds == 30
    assert limits.wall_seconds > limits.cpu_seconds  # a busy machine has time to finish
