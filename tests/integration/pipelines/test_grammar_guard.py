"""The grammar guard over real probes (SmolLM2-135M's tokenizer): a refusal is one sentence on
``json_schema``; a verdict is probed once and then found in memory or on disk, whatever the
state of its file; and a chat pipeline asks the guard before GenAI compiles anything."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.chat.structured import check_schema
from pipelines import grammar_guard
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings, Message
from pipelines.grammar_guard import GrammarGuard, probe_target, verdict_key
from pipelines.grammar_probe import GrammarSpec, ProbeLimits, ProbeTarget, Verdict
from pipelines.json_grammar import grammar_spec
from tests.grammar_schemas import COSTLY, SMALL

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

ONE_SECOND = ProbeLimits(memory_bytes=1 << 30, cpu_seconds=1.0, wall_seconds=600)


@pytest.fixture(scope="module")
def target(real_model_folder: Path) -> ProbeTarget:
    return probe_target(real_model_folder)


@pytest.fixture
def probes(monkeypatch: pytest.MonkeyPatch) -> list[GrammarSpec]:
    """The grammars the guard hands to a child process from now on (the real probe runs)."""
    spawned: list[GrammarSpec] = []
    real = grammar_guard.run_probe

    def counted(spec: GrammarSpec, *args: Any, **kwargs: Any) -> Verdict:
        spawned.append(spec)
        return real(spec, *args, **kwargs)

    monkeypatch.setattr(grammar_guard, "run_probe", counted)
    return spawned


def _spec(schema: str) -> GrammarSpec:
    return grammar_spec(check_schema(schema))


def test_a_schema_over_the_limit_is_refused_in_one_sentence(
    target: ProbeTarget, tmp_path: Path, probes: list[GrammarSpec]
) -> None:
    guard = GrammarGuard(tmp_path, lambda: ONE_SECOND)
    with pytest.raises(InvalidInputError) as refused:
        guard.check(_spec(COSTLY), target)
    assert refused.value.field == "json_schema"
    assert str(refused.value) == (
        "This JSON schema would take more than 1 s of processor time to enforce; simplify it."
    )
    guard.check(_spec(SMALL), target)  # the same limits let a small one through
    assert len(probes) == 2


def test_a_verdict_is_probed_once_then_remembered_and_kept_on_disk(
    target: ProbeTarget, tmp_path: Path, probes: list[GrammarSpec]
) -> None:
    guard = GrammarGuard(tmp_path, lambda: ONE_SECOND)
    for _ in range(2):
        with pytest.raises(InvalidInputError):
            guard.check(_spec(COSTLY), target)
        guard.check(_spec(SMALL), target)
    assert len(probes) == 2  # one child per grammar, none for the second asking
    restarted = GrammarGuard(tmp_path, lambda: ONE_SECOND)  # the next run of the app
    with pytest.raises(InvalidInputError):
        restarted.check(_spec(COSTLY), target)
    restarted.check(_spec(SMALL), target)
    assert len(probes) == 2
    assert len(list(tmp_path.glob("*.json"))) == 2


@pytest.mark.parametrize("content", [b"", b"{not json", b'{"format": 1, "verdict": {}}', b"\xff"])
def test_a_damaged_verdict_file_is_ignored_and_replaced(
    target: ProbeTarget, tmp_path: Path, probes: list[GrammarSpec], content: bytes
) -> None:
    spec = _spec(SMALL)
    (tmp_path / f"{verdict_key(spec, target)}.json").write_bytes(content)
    guard = GrammarGuard(tmp_path, lambda: ONE_SECOND)
    guard.check(spec, target)
    assert len(probes) == 1
    record = json.loads((tmp_path / f"{verdict_key(spec, target)}.json").read_text("utf-8"))
    assert record["verdict"]["outcome"] == "fits"


def test_a_verdict_under_other_limits_is_used_where_it_tells(
    target: ProbeTarget, tmp_path: Path, probes: list[GrammarSpec]
) -> None:
    limits = ONE_SECOND
    guard = GrammarGuard(tmp_path, lambda: limits)
    with pytest.raises(InvalidInputError):
        guard.check(_spec(COSTLY), target)
    limits = ProbeLimits(cpu_seconds=0.5)  # lower: over 1 s is over 0.5 s too
    with pytest.raises(InvalidInputError, match=r"more than 0\.5 s"):
        guard.check(_spec(COSTLY), target)
    assert len(probes) == 1


def test_a_grammar_that_crashes_its_probe_is_refused_and_not_tried_again(
    target: ProbeTarget, tmp_path: Path, probes: list[GrammarSpec]
) -> None:
    deep = "root ::= " + "(" * 200_000 + '"a"' + ")" * 200_000
    guard = GrammarGuard(tmp_path)
    for _ in range(2):
        with pytest.raises(InvalidInputError, match="crashed the process that tried it"):
            guard.check(GrammarSpec("grammar", deep), target)
    assert len(probes) == 1


def test_the_chat_pipeline_asks_the_guard_before_genai_compiles(
    real_chat_model: Path,
    converted_gguf_cache: Path,
    tmp_path: Path,
    probes: list[GrammarSpec],
) -> None:
    guard = GrammarGuard(tmp_path, lambda: ONE_SECOND)
    config = ChatModelConfig(
        real_chat_model, converted_dir=converted_gguf_cache, grammar_guard=guard
    )
    pipeline = ChatPipeline(config)
    pipeline.load()
    messages = [Message("user", "Write an address.")]
    costly = GenerationSettings(max_new_tokens=4, json_schema=check_schema(COSTLY))
    with pytest.raises(InvalidInputError) as refused:
        pipeline.generate(messages, costly, CancelToken(), lambda _text: None)
    assert refused.value.field == "json_schema"
    assert probes == [grammar_spec(costly.json_schema or "")]
    tool_choice = GenerationSettings(
        max_new_tokens=4, json_schema=check_schema(SMALL), compact_json=False
    )  # as the tool loop asks: GenAI's own conversion, probed as such
    pipeline.generate(messages, tool_choice, CancelToken(), lambda _text: None)
    assert probes[-1] == GrammarSpec("json_schema", check_schema(SMALL))
