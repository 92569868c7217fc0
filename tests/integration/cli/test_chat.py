"""``chat`` and ``ask`` as a user runs them: a real subprocess, streamed and JSON answers, stdin,
Ctrl+C, images, GGUF files, knowledge sources, and ``--json-schema FILE`` / ``--json-object``
(stdout is exactly the JSON answer, or nothing); the real SmolLM2 where answers must be right."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from PIL import Image

from app.chat.structured import LENGTH_LIMIT
from app.cli import exits
from app.cli.progress import STOPPING
from app.cli.terminal import shown
from app.core.paths import AppPaths
from tests.app_process import interrupt_app, models_env, run_app
from tests.grammar_schemas import COSTLY
from tests.integration.chat.test_grounded_answers import documents
from tests.integration.cli.test_main import _run
from tests.integration.pipelines.test_gguf_cache import REFUSALS

__all__ = ["documents"]  # fixtures, imported for the tests below


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


@pytest.mark.integration
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


@pytest.mark.integration
def test_a_folder_as_the_schema_file_exits_2(app_home: AppPaths, tmp_path: Path) -> None:
    args = ["chat", "--model", str(tmp_path), "--json-schema", str(tmp_path), "Hi"]
    result = run_app(args, app_home)
    assert result.returncode == exits.USAGE
    assert result.stderr == f"error: {tmp_path} is a folder, not a JSON schema file.\n"


@pytest.mark.integration
def test_a_pipe_as_the_schema_file_is_refused_unopened(app_home: AppPaths, tmp_path: Path) -> None:
    fifo = tmp_path / "schema.json"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    args = ["chat", "--model", str(tmp_path), "--json-schema", str(fifo), "Hi"]
    result = run_app(args, app_home, timeout=120)
    assert result.returncode == exits.USAGE
    assert "is not a file but a pipe or a device; give a JSON schema file." in result.stderr


@pytest.mark.integration
def test_a_schema_and_any_object_cannot_both_be_asked(app_home: AppPaths, tmp_path: Path) -> None:
    path = _schema_file(tmp_path, json.dumps(PERSON))
    args = ["chat", "--model", str(tmp_path), "--json-schema", str(path), "--json-object", "Hi"]
    result = run_app(args, app_home)
    assert result.returncode == exits.USAGE
    assert "not allowed with argument" in result.stderr


@pytest.mark.integration
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


@pytest.mark.integration
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


@pytest.mark.integration
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


@pytest.mark.integration
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


@pytest.mark.integration
def test_ctrl_c_stops_a_chat_answer_keeps_it_and_exits_1(
    app_home: AppPaths, chat_model_dir: Path
) -> None:
    # The longest answer the tiny model's context allows: it streams for about a second. A
    # fixed seed: with a random one the random-weight model may print no space to wait for.
    args = ["chat", "--model", str(chat_model_dir), "--max-new-tokens", "1900", "--seed", "0"]
    args += ["--json", "Hi"]
    result = interrupt_app(args, app_home, once=" ", stream="stdout")
    assert result.returncode == exits.PARTIAL, result.stderr
    payload = json.loads(result.stdout.rstrip("\n").split("\n")[-1])
    assert payload["stopped"] is True and payload["text"]
    assert payload["metrics"]["output_tokens"] < 1900
    assert result.stderr.splitlines() == [STOPPING, "stopped: the answer above is partial"]


@pytest.mark.integration
def test_chat_streams_and_ends_with_json(app_home: AppPaths, chat_model_dir: Path) -> None:
    result = _run(
        ["chat", "--model", str(chat_model_dir), "--max-new-tokens", "8", "--json", "Hi"],
        app_home,
    )
    assert result.returncode == 0, result.stderr
    *streamed, last = result.stdout.rstrip("\n").split("\n")
    payload = json.loads(last)
    assert payload["device"] == "CPU"
    assert payload["requested_device"] == "AUTO"
    assert payload["metrics"]["output_tokens"] <= 8
    assert payload["metrics"]["tokens_per_s"] > 0
    # Random weights write control characters too: the stream shows them as escapes.
    assert "\n".join(streamed) == shown(payload["text"], lines=True)
    assert not list(app_home.conversations_dir.glob("*.json"))  # one-shot: nothing stored


@pytest.mark.integration
def test_an_answer_cut_at_its_length_limit_says_so_on_stderr(
    app_home: AppPaths, chat_model_dir: Path
) -> None:
    # Greedy, the random tiny model writes no end-of-answer token in 6 tokens: it is cut.
    args = ["chat", "--model", str(chat_model_dir), "--max-new-tokens", "6", "--temperature", "0"]
    result = _run([*args, "--json", "Hi"], app_home)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout.rstrip("\n").split("\n")[-1])
    assert payload["cut"] is True and payload["metrics"]["output_tokens"] == 6
    assert result.stderr.splitlines() == [
        "cut off at 6 tokens: the answer is not finished (--max-new-tokens)"
    ]


@pytest.mark.integration
def test_chat_reads_stdin(app_home: AppPaths, chat_model_dir: Path) -> None:
    result = _run(
        ["chat", "--model", str(chat_model_dir), "--max-new-tokens", "4", "--json", "-"],
        app_home,
        stdin="Hello from a pipe",
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.integration
@pytest.mark.parametrize("fault", sorted(REFUSALS))
def test_the_command_line_says_a_faulty_gguf_in_one_line(
    fault: str, gguf_variants: dict[str, Path], app_home: AppPaths
) -> None:
    done = run_app(["chat", "--model", str(gguf_variants[fault]), "Hello"], app_home)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert REFUSALS[fault] in line
    assert done.stdout == ""


@pytest.mark.integration
def test_cli_ask_prints_the_answer_and_its_sources(
    app_home: AppPaths, embedding_model_dir: Path, chat_model_dir: Path, documents: Path
) -> None:
    env = models_env(embedding=embedding_model_dir)
    ingested = run_app(["ingest", str(documents), "--collection", "K"], app_home, env)
    assert ingested.returncode == 0, ingested.stderr
    listed = run_app(["collections", "--json"], app_home, env)
    [collection] = json.loads(listed.stdout)
    assert (collection["name"], collection["documents"]) == ("K", 2)
    common = ["--collection", "K", "--model", str(chat_model_dir), "--max-new-tokens", "6"]
    asked = run_app(["ask", "Sourdough rise time?", *common, "--json"], app_home, env)
    assert asked.returncode == 0, asked.stderr
    payload = json.loads(asked.stdout.strip().splitlines()[-1])
    first = payload["sources"][0]
    assert (Path(first["path"]).name, first["page"], first["number"]) == ("bakery.pdf", 2, 1)
    assert payload["metrics"]["output_tokens"] >= 1
    plain = run_app(["ask", "Trams?", *common], app_home, env)
    assert plain.returncode == 0, plain.stderr
    assert "\nSources:\n[1] trams.txt" in plain.stdout
    off_topic = run_app(["ask", "Who won the world cup in 2014?", *common, "--json"], app_home, env)
    assert off_topic.returncode == 0, off_topic.stderr
    report = json.loads(off_topic.stdout.strip().splitlines()[-1])
    assert report["sources"] == [] and report["sources_left_out"] > 0
    missing = run_app(["ask", "x?", *common[:1], "Nope", *common[2:]], app_home, env)
    assert missing.returncode == 2
    assert "no collection named" in missing.stderr and "Traceback" not in missing.stderr


@pytest.mark.integration
@pytest.mark.real_model
def test_cli_chat_answers_with_paris(gguf_home: AppPaths, real_chat_model: Path) -> None:
    args = ["chat", "--model", str(real_chat_model), "--temperature", "0"]
    result = run_app([*args, "What is the capital of France?"], gguf_home)
    assert result.returncode == exits.OK, result.stderr
    assert "Paris" in result.stdout
    assert "<|im" not in result.stdout


@pytest.mark.integration
def test_cli_chat_about_an_image(
    app_home: AppPaths, vision_model_dir: Path, tmp_path: Path
) -> None:
    picture = tmp_path / "red.png"
    Image.new("RGB", (3000, 200), "red").save(picture)
    args = ["chat", "--model", str(vision_model_dir), "--image", str(picture), "--image"]
    done = run_app([*args, str(picture), "--max-new-tokens", "4", "--json", "What?"], app_home)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout.strip().splitlines()[-1])
    assert payload["metrics"]["images"] == 2 and payload["metrics"]["output_tokens"] == 4
    assert "note: red.png: Scaled down from 3000×200." in done.stderr


@pytest.mark.integration
def test_cli_refuses_bad_images_in_one_line(
    app_home: AppPaths, vision_model_dir: Path, chat_model_dir: Path, tmp_path: Path
) -> None:
    fake = tmp_path / "fake.png"
    fake.write_text("not a picture")
    done = run_app(["chat", "--model", str(vision_model_dir), "--image", str(fake), "Hi"], app_home)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: fake.png is not an image this app can read."
    real = tmp_path / "real.png"
    Image.new("RGB", (40, 40)).save(real)
    done = run_app(["chat", "--model", str(chat_model_dir), "--image", str(real), "Hi"], app_home)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "reads text only" in done.stderr
