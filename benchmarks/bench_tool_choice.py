"""Tool-choice benchmark: writes benchmarks/results/tool_choice.json.

Whether the real SmolLM2-135M (GGUF, fixture ``llm-real``) picks the right tool — and fills in
the right arguments — when the tools it reads name only their arguments' types (the prompt
before, kept here to compare), against the tool-call layer's prompt, which describes each
argument as the tool's author did, inside an example call
(:func:`app.tool_calls.prompting.describe_tools`). The same
choice grammar for both (:func:`app.tool_calls.choice.choice_schema`, "none" allowed: the
chat's ``auto``), greedy, as the chat's tool loop generates it. The tools are the real
``mcp-server-time`` schemas, a calculator and a weather tool; the prompts are questions one
tool answers, and two no tool answers.

A measure of the model's judgement, not of speed: no timing, so a busy machine does not
change it (greedy decoding is deterministic).

Run: ``.venv/bin/python benchmarks/bench_tool_choice.py``.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_grammar_probe import SMOLLM2_FILE  # noqa: E402
from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "tool_choice.json"
TIMEZONE = (
    "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local "
    "timezone if no timezone provided by the user."
)
HH_MM = "Time to convert in 24-hour format (HH:MM)"
TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    # mcp-server-time's own descriptions and schemas.
    "time/get_current_time": (
        "Get current time in a specific timezones",
        {
            "type": "object",
            "properties": {"timezone": {"type": "string", "description": TIMEZONE}},
            "required": ["timezone"],
        },
    ),
    "time/convert_time": (
        "Convert time between timezones",
        {
            "type": "object",
            "properties": {
                "source_timezone": {"type": "string", "description": "Source " + TIMEZONE},
                "time": {"type": "string", "description": HH_MM},
                "target_timezone": {"type": "string", "description": "Target " + TIMEZONE},
            },
            "required": ["source_timezone", "time", "target_timezone"],
        },
    ),
    "calculator/multiply": (
        "Multiply two numbers.",
        {
            "type": "object",
            "properties": {
                "a": {"type": "number", "description": "The first factor"},
                "b": {"type": "number", "description": "The second factor"},
            },
            "required": ["a", "b"],
        },
    ),
    "weather/get_weather": (
        "The current weather in a city.",
        {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city's name", "examples": ["Paris"]},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    ),
}  # fmt: skip
#: (question, the tool that answers it or "none", the arguments that are right).
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("What time is it in Tokyo?", "time/get_current_time", {"timezone": "Asia/Tokyo"}),
    ("What is the current time in London?", "time/get_current_time", {"timezone": "Europe/London"}),
    ("What time is it in New York right now?", "time/get_current_time",
     {"timezone": "America/New_York"}),
    ("Convert 15:00 from New York time to Berlin time.", "time/convert_time",
     {"source_timezone": "America/New_York", "time": "15:00", "target_timezone": "Europe/Berlin"}),
    ("What is 17 times 23?", "calculator/multiply", {"a": 17, "b": 23}),
    ("Multiply 12 by 7.", "calculator/multiply", {"a": 12, "b": 7}),
    ("What's the weather like in Paris?", "weather/get_weather", {"city": "Paris"}),
    ("Is it raining in Oslo?", "weather/get_weather", {"city": "Oslo"}),
    ("Tell me a joke.", "none", {}),
    ("What is the capital of France?", "none", {}),
]  # fmt: skip


def prompt_before(question: str) -> str:
    """The decision prompt as it was: each argument by its type only."""
    from app.tool_calls.choice import simplified

    lines = [question, "", "Tools you can call:"]
    for name, (description, schema) in TOOLS.items():
        properties = simplified(schema).get("properties", {})
        shape = {key: spec.get("type", "any") for key, spec in properties.items()}
        lines.append(f"- {name}: {description} Arguments: {json.dumps(shape)}")
    lines.append(
        'Reply with JSON only: {"tool": "<tool id>", "arguments": {...}} to call a tool, '
        'or {"tool": "none"} when no tool is needed.'
    )
    return "\n".join(lines)


def prompt_after(question: str) -> str:
    """The tool-call layer's decision prompt."""
    from app.tool_calls.prompting import decision_prompt
    from app.tool_calls.specs import ToolSpec

    specs = [ToolSpec(name, text, schema) for name, (text, schema) in TOOLS.items()]
    return decision_prompt(question, specs, [])


def run(model: Path, scratch: Path) -> dict[str, Any]:
    """Every case under both prompts: the choice, and whether tool and arguments are right."""
    from jsonschema import Draft202012Validator

    from app.tool_calls.choice import DECISION_TOKENS, choice_schema, parse_choice
    from pipelines.chat import ChatModelConfig, ChatPipeline
    from pipelines.core import CancelToken
    from pipelines.generation import GenerationSettings, Message

    pipeline = ChatPipeline(ChatModelConfig(model, "CPU", converted_dir=scratch / "converted"))
    pipeline.load()
    schema = json.dumps(choice_schema({name: s for name, (_, s) in TOOLS.items()}))
    settings = GenerationSettings(
        max_new_tokens=DECISION_TOKENS, temperature=0.0, repetition_penalty=1.0,
        json_schema=schema, compact_json=False,
    )  # fmt: skip
    results: dict[str, Any] = {}
    for label, prompt in (("before", prompt_before), ("after", prompt_after)):
        rows = []
        for question, tool, arguments in CASES:
            messages = [Message("user", prompt(question))]
            text = pipeline.generate(messages, settings, CancelToken(), lambda _t: None).text
            choice = parse_choice(text, set(TOOLS))
            chosen, given = choice if choice else ("none", {})
            valid = chosen == "none" or Draft202012Validator(TOOLS[chosen][1]).is_valid(given)
            rows.append(
                {
                    "question": question,
                    "expected": tool,
                    "chosen": chosen,
                    "arguments": given,
                    "right_tool": chosen == tool,
                    "valid_arguments": valid,
                    "right_arguments": chosen == tool and given == arguments,
                }
            )
        results[label] = {
            "right_tool": sum(r["right_tool"] for r in rows),
            "right_arguments": sum(r["right_arguments"] for r in rows),
            "called_when_a_tool_answers": sum(
                r["chosen"] != "none" for r in rows if r["expected"] != "none"
            ),
            "cases": len(rows),
            "rows": rows,
        }
    pipeline.close()
    return results


def main() -> None:
    root = load_builder().ensure_fixtures(["llm-real"])
    results = {
        "model": SMOLLM2_FILE,
        "decoding": "greedy, repetition penalty 1.0, choice grammar with 'none' allowed",
    }
    with tempfile.TemporaryDirectory(prefix="bench-tool-choice-") as scratch:
        results.update(run(root / "llm-real" / SMOLLM2_FILE, Path(scratch)))
    write_results(RESULTS, results)


if __name__ == "__main__":
    main()
