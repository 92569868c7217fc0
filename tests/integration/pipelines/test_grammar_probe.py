"""The grammar probe with real children: the real SmolLM2-135M tokenizer, GenAI's real
compiler, limits lowered so that a schema within the app's budget goes over them in a second
or two. Whatever the child does — run long, fill memory, crash — this process carries on, and
no child is left behind."""

from __future__ import annotations

from pathlib import Path

import psutil
import pytest

from app.chat.structured import check_schema
from pipelines.core import Cancelled, CancelToken
from pipelines.grammar_guard import probe_target
from pipelines.grammar_probe import GrammarSpec, ProbeLimits, ProbeTarget, run_probe
from pipelines.json_grammar import grammar_spec
from tests.grammar_schemas import BIG_ENUM, COSTLY, SMALL

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

ONE_SECOND = ProbeLimits(memory_bytes=1 << 30, cpu_seconds=1.0, wall_seconds=600)
SIXTEEN_MB = ProbeLimits(memory_bytes=16 << 20, cpu_seconds=600, wall_seconds=600)
PARENTHESES = 200_000
"""Nested this deep, xgrammar's EBNF parser runs out of stack: a segmentation fault."""


@pytest.fixture(scope="module")
def target(real_model_folder: Path) -> ProbeTarget:
    return probe_target(real_model_folder)


def _spec(schema: str) -> GrammarSpec:
    return grammar_spec(check_schema(schema))  # within the budget, as an answer's would be


@pytest.fixture
def children_before() -> set[int]:
    """This process's children before a test: the suite may keep some of its own (e.g.
    multiprocessing's resource tracker), which are no probe's leftovers."""
    return {child.pid for child in psutil.Process().children(recursive=True)}


def _new_children(before: set[int]) -> list[psutil.Process]:
    return [child for child in psutil.Process().children(recursive=True) if child.pid not in before]


def test_the_target_is_the_models_tokenizer_and_its_logits_width(
    target: ProbeTarget, real_model_folder: Path
) -> None:
    assert target.tokenizer == real_model_folder
    assert target.vocab_size == 49152  # SmolLM2's logits, read from the IR's XML


def test_a_schema_costing_more_cpu_than_the_limit_is_stopped_at_the_limit(
    target: ProbeTarget, tmp_path: Path, children_before: set[int]
) -> None:
    verdict = run_probe(_spec(COSTLY), target, ONE_SECOND, scratch=tmp_path)
    assert verdict.outcome == "cpu" and verdict.limit == 1.0 < verdict.cpu_seconds
    assert _new_children(children_before) == []
    assert list(tmp_path.iterdir()) == []  # the synthetic model is gone with the child


def test_a_schema_taking_more_memory_than_the_limit_is_stopped(
    target: ProbeTarget, children_before: set[int]
) -> None:
    verdict = run_probe(_spec(BIG_ENUM), target, SIXTEEN_MB)
    assert verdict.outcome == "memory" and verdict.memory_bytes > 16 << 20
    assert _new_children(children_before) == []


def test_a_small_schema_fits_the_same_limits(target: ProbeTarget) -> None:
    for limits in (ONE_SECOND, SIXTEEN_MB):
        verdict = run_probe(_spec(SMALL), target, limits)
        assert verdict.fits, verdict
        assert verdict.cpu_seconds < 1 and verdict.memory_bytes < 16 << 20


def test_a_grammar_that_crashes_the_compiler_crashes_only_the_child(
    target: ProbeTarget, children_before: set[int]
) -> None:
    deep = "root ::= " + "(" * PARENTHESES + '"a"' + ")" * PARENTHESES
    verdict = run_probe(GrammarSpec("grammar", deep), target, ProbeLimits())
    assert verdict.outcome == "crashed", verdict  # in this process it would have been us
    assert _new_children(children_before) == []


def test_a_grammar_genai_refuses_is_refused_with_its_reason(target: ProbeTarget) -> None:
    verdict = run_probe(GrammarSpec("grammar", "root ::= undefined_rule"), target, ProbeLimits())
    assert verdict.outcome == "refused" and "undefined_rule" in verdict.detail


def test_a_cancelled_probe_ends_its_child(target: ProbeTarget, children_before: set[int]) -> None:
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        run_probe(_spec(COSTLY), target, ProbeLimits(), cancel)
    assert _new_children(children_before) == []


def test_a_probe_that_cannot_set_up_says_so_without_judging_the_grammar(
    tmp_path: Path, children_before: set[int]
) -> None:
    nowhere = ProbeTarget(tmp_path / "no-tokenizer", None, "none")
    verdict = run_probe(_spec(SMALL), nowhere, ProbeLimits())
    assert verdict.outcome == "unavailable" and verdict.detail
    assert _new_children(children_before) == []
