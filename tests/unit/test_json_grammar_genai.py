"""GenAI's constrained decoder (xgrammar) takes every grammar the converter writes, and what a
random model samples under it is compact JSON that follows the schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pipelines.generation import GenerationSettings, generation_config
from pipelines.json_grammar import json_grammar
from pipelines.json_grammar_ebnf import compact
from tests.unit.pipelines.test_json_grammar import CASES

pytestmark = pytest.mark.integration

SMALL = [
    {"type": "object", "properties": {"ok": {"type": "boolean"}, "n": {"enum": [1, "two"]}}},
    {"type": "array", "items": {"type": "integer", "minimum": -3, "maximum": 40}, "maxItems": 3},
    {"anyOf": [{"type": "null"}, {"type": "string", "maxLength": 2}]},
    {
        "$defs": {
            "t": {
                "type": "object",
                "properties": {
                    "v": {"type": "boolean"},
                    "k": {"type": "array", "items": {"$ref": "#/$defs/t"}, "maxItems": 1},
                },
                "required": ["v"],
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/t",
    },
]


@pytest.fixture(scope="module")
def tiny_llm(chat_model_dir: Path) -> Any:
    import openvino_genai as ov_genai

    return ov_genai.LLMPipeline(str(chat_model_dir), "CPU")


@pytest.mark.parametrize("schema", [case[0] for case in CASES], ids=[str(c[0])[:50] for c in CASES])
def test_genai_compiles_every_grammar(tiny_llm: Any, schema: Any) -> None:
    import openvino_genai as ov_genai

    config = generation_config(GenerationSettings(max_new_tokens=3, temperature=0.0))
    grammar = json_grammar(json.dumps(schema), free_values=True)
    config.structured_output_config = ov_genai.StructuredOutputConfig(grammar=grammar)
    # Raises when xgrammar cannot read the grammar; three tokens are enough to prove it can.
    tiny_llm.generate("Answer in JSON.", config)


def test_genai_raises_on_a_grammar_it_cannot_read(tiny_llm: Any) -> None:
    import openvino_genai as ov_genai

    config = generation_config(GenerationSettings(max_new_tokens=3, temperature=0.0))
    config.structured_output_config = ov_genai.StructuredOutputConfig(grammar='root ::= "a" (')
    with pytest.raises(RuntimeError):
        tiny_llm.generate("Answer in JSON.", config)


@pytest.mark.parametrize("schema", SMALL, ids=[str(s)[:40] for s in SMALL])
def test_sampled_answers_are_compact_and_follow_the_schema(tiny_llm: Any, schema: Any) -> None:
    finished = 0
    for seed in range(12):
        settings = GenerationSettings(
            max_new_tokens=60, temperature=1.0, seed=seed, json_schema=json.dumps(schema)
        )
        config = generation_config(settings)
        assert config.structured_output_config.grammar  # the compact grammar, not json_schema
        result = tiny_llm.generate("Answer in JSON.", config)
        text = str(result)
        try:
            value = json.loads(text)
        except ValueError:
            continue  # cut at the length limit: only finished answers are judged
        finished += 1
        jsonschema.validate(value, schema)
        assert text == compact(value), text
    # A random model under these small grammars finishes most answers: not a vacuous check.
    assert finished >= 6, finished
