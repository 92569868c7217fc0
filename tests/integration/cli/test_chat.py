"""``chat --json-schema FILE`` / ``--json-object`` as a user runs them: a real subprocess, the
real SmolLM2 for the answers; stdout is exactly the JSON answer, or nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from app.chat.structured import LENGTH_LIMIT
from app.cli import exits
from app.core.paths import AppPaths
from tests.app_process import run_app
from tests.grammar_schemas import COSTLY

pytestmark = pytest.mark.integration

PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 10},
        "age": {"type": "integer", "minimum": 0, "maximum": 120},
    },
    "required": ["name", "age"],
    "additionalProperties": False,
}


def _schema_file(tmp_path: Path, text: str | bytes, name: str = "schema.json") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "missing.json does not exist"),
        ("{not json", "not valid JSON"),
        ("", "empty"),
        ('{"$ref": "https://example.com/person.json"}', "only references inside the schema"),
        ('{"$ref": "#"}', "round in a circle"),
        ('{"items":' * 5000 + "{}" + "}" * 5000, "nested more than"),
        ('{"type": "string", "pattern": "(?<=a)b"}', "lookahead or lookbehind"),
        (b'{"description": "\xff\xfe"}', "not UTF-8"),
        ('{"enum": [' + ",".join(['"' + "x" * 98 + '"'] * 1100) + "]}", "over 100,000 bytes"),
        # Over the grammar's budget: arrays 30 deep once took 23 GB, 8 deep 822 MB and 40 s.
        ('{"items": ' * 30 + "{}" + "}" * 30, "nests arrays and objects 30 levels deep"),
        ('{"type": "string", "maxLength": 1000000000}', "at most 100,000 characters"),
    ],
)
def test_a_bad_schema_file_exits_2_with_one_line_before_the_model_loads(
    app_home: AppPaths, tmp_path: Path, content: str | bytes | None, words: str
) -> None:
    path = tmp_path / "missing.json" if content is None else _schema_file(tmp_path, content)
    # The model does not exist: the schema must be refused before anything loads.
    args = ["chat", "--model", str(tmp_path / "no-model"), "--json-schema", str(path), "Hi"]
    result = run_app(args, app_home)
    assert result.returncode == exits.USAGE, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines


def test_a_folder_as_the_schema_file_exits_2(app_home: AppPaths, tmp_path: Path) -> None:
    args = ["chat", "--model", str(tmp_path), "--json-schema", str(tmp_path), "Hi"]
    result = run_app(args, app_home)
    assert result.returncode == exits.USAGE
    assert result.stderr == f"error: {tmp_path} is a folder, not a JSON schema file.\n"


def test_a_pipe_as_the_schema_file_is_refused_unopened(app_home: AppPaths, tmp_path: Path) -> None:
    fifo = tmp_path / "schema.json"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    args = ["chat", "--model", str(tmp_path), "--json-schema", str(fifo), "Hi"]
    result = run_app(args, app_home, timeout=120)
    assert result.returncode == exits.USAGE
    assert "is not a file but a pipe or a device; give a JSON schema file." in result.stderr


def test_a_schema_and_any_object_cannot_both_be_asked(app_home: AppPaths, tmp_path: Path) -> None:
    path = _schema_file(tmp_path, json.dumps(PERSON))
    args = ["chat", "--model", str(tmp_path), "--json-schema", str(path), "--json-object", "Hi"]
    result = run_app(args, app_home)
    assert result.returncode == exits.USAGE
    assert "not allowed with argument" in result.stderr


@pytest.mark.real_model
def test_stdout_is_exactly_the_json_answer_following_the_schema(
    gguf_home: AppPaths, real_chat_model: Path, tmp_path: Path
) -> None:
    path = _schema_file(tmp_path, json.dumps(PERSON, indent=2))
    args = ["chat", "--model", str(real_chat_model), "--temperature", "0"]
    args += ["--max-new-tokens", "80", "--json-schema", str(path), "Describe a person."]
    result = run_app(args, gguf_home)
    assert result.returncode == exits.OK, result.stderr
    jsonschema.validate(json.loads(result.stdout), PERSON)
    assert result.stdout.endswith("}\n")


@pytest.mark.real_model
def test_a_schema_whose_grammar_costs_more_than_the_limit_exits_2_in_one_line(
    gguf_home: AppPaths, real_chat_model: Path, tmp_path: Path
) -> None:
    # Within the budget, but 12 s of compile on SmolLM2: over a limit lowered to 1 s, it is
    # stopped in the probe's child process, before this one compiles anything.
    path = _schema_file(tmp_path, COSTLY)
    args = ["chat", "--model", str(real_chat_model), "--json-schema", str(path), "Hi"]
    result = run_app(args, gguf_home, {"OV_STUDIO_JSON_GRAMMAR__CPU_SECONDS": "1"})
    assert result.returncode == exits.USAGE, result.stderr
    assert result.stdout == ""
    assert result.stderr == (
        "error: This JSON schema would take more than 1 s of processor time to enforce; "
        "simplify it.\n"
    )
    assert len(list(gguf_home.grammar_verdicts.glob("*.json"))) == 1  # kept for next time


@pytest.mark.real_model
def test_an_answer_cut_by_the_length_limit_is_not_printed(
    gguf_home: AppPaths, real_chat_model: Path, tmp_path: Path
) -> None:
    path = _schema_file(tmp_path, json.dumps(PERSON))
    args = ["chat", "--model", str(real_chat_model), "--temperature", "0"]
    args += ["--max-new-tokens", "4", "--json-schema", str(path), "Describe a person."]
    result = run_app(args, gguf_home)
    assert result.returncode == exits.PARTIAL
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == LENGTH_LIMIT


@pytest.mark.real_model
def test_any_json_object_with_the_report(gguf_home: AppPaths, real_chat_model: Path) -> None:
    args = ["chat", "--model", str(real_chat_model), "--temperature", "0"]
    args += ["--max-new-tokens", "60", "--json-object", "--json", "Describe a cat."]
    result = run_app(args, gguf_home)
    report = json.loads(result.stdout)
    if result.returncode == exits.OK:
        assert isinstance(report["json"], dict) and report["json_problem"] == ""
        assert json.loads(report["text"]) == report["json"]
    else:  # the grammar lets white space run on (see test_json_answer_schemas_real)
        assert result.returncode == exits.PARTIAL
        assert report["json"] is None and report["json_problem"] == LENGTH_LIMIT
