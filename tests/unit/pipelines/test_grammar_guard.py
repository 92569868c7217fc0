"""What the grammar guard reads without running a probe: a kept verdict under today's limits, the
logits width of a model's IR, the name of a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.grammar_guard import logits_width, probe_target, under, verdict_key
from pipelines.grammar_probe import GrammarSpec, ProbeLimits, ProbeTarget, Verdict

MB = 1 << 20
LIMITS = ProbeLimits(memory_bytes=100 * MB, cpu_seconds=10.0)


@pytest.mark.parametrize(
    ("kept", "now"),
    [
        (Verdict("fits", cpu_seconds=2, memory_bytes=5 * MB), "fits"),
        (Verdict("fits", cpu_seconds=20, memory_bytes=5 * MB), "cpu"),
        (Verdict("fits", cpu_seconds=2, memory_bytes=500 * MB), "memory"),
        (Verdict("cpu", cpu_seconds=12, limit=12.0), "cpu"),  # over 12 s: over 10 s too
        (Verdict("cpu", cpu_seconds=6, limit=5.0), None),  # over 5 s: over 10 s, maybe
        (Verdict("memory", memory_bytes=60 * MB, limit=50 * MB), None),
        (Verdict("memory", memory_bytes=300 * MB, limit=200 * MB), "memory"),
        (Verdict("crashed", detail="exit code -11"), "crashed"),
        (Verdict("refused", detail="EBNF parser: undefined rule"), "refused"),
    ],
)
def test_a_kept_verdict_under_todays_limits(kept: Verdict, now: str | None) -> None:
    verdict = under(kept, LIMITS)
    if now is None:
        assert verdict is None  # only a new probe can tell
    else:
        assert verdict is not None and verdict.outcome == now


def test_under_a_lower_limit_the_sentence_quotes_todays_limit() -> None:
    verdict = under(Verdict("cpu", cpu_seconds=31, limit=30.0), LIMITS)
    assert verdict is not None and verdict.limit == 10.0


def test_the_logits_width_is_read_from_the_ir(chat_model_dir: Path, vision_model_dir: Path) -> None:
    assert logits_width(chat_model_dir / "openvino_model.xml") == 1536
    assert logits_width(vision_model_dir / "openvino_language_model.xml") == 1024
    assert logits_width(chat_model_dir / "openvino_tokenizer.xml") is None  # no logits there


def test_a_verdict_is_named_by_grammar_and_tokenizer(chat_model_dir: Path, tmp_path: Path) -> None:
    spec = GrammarSpec("grammar", 'root ::= "a"')
    target = probe_target(chat_model_dir)
    other = ProbeTarget(target.tokenizer, target.vocab_size, target.identity + "-other")
    names = {
        verdict_key(spec, target),
        verdict_key(GrammarSpec("json_schema", 'root ::= "a"'), target),
        verdict_key(GrammarSpec("grammar", 'root ::= "b"'), target),
        verdict_key(spec, other),
    }
    assert len(names) == 4
    assert verdict_key(spec, probe_target(chat_model_dir)) == verdict_key(spec, target)
