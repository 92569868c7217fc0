"""The engine flags of ``chat`` on the real SmolLM2-135M GGUF: u4 and prompt lookup answer, errors
are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import exits
from app.core.paths import AppPaths
from tests.app_process import run_app

pytestmark = [pytest.mark.integration, pytest.mark.real_model]


def test_the_cli_answers_with_u4_and_prompt_lookup(
    gguf_home: AppPaths, real_chat_model: Path
) -> None:
    result = run_app(
        [
            "--verbose",
            "chat",
            "What is 2 + 2?",
            "--model",
            str(real_chat_model),
            "--max-new-tokens",
            "8",
            "--temperature",
            "0",
            "--kv-cache",
            "u4",
            "--prompt-lookup",
            "--json",
        ],
        gguf_home,
    )
    assert result.returncode == exits.OK, result.stderr
    payload = json.loads(result.stdout.strip().splitlines()[-1])
    assert payload["text"].strip()
    assert payload["engine"] == {"kv_cache_precision": "u4", "prompt_lookup": "True"}
    assert "engine: kv_cache_precision=u4, prompt_lookup=True" in result.stderr


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--cache-eviction", "1024"], "--cache-eviction: Cache eviction cannot be combined"),
        (["--cache-eviction", "64"], "argument --cache-eviction: 0 (off) or 512-65536 tokens"),
        (["--prompt-lookup", "--draft-model", "."], "--prompt-lookup/--no-prompt-lookup:"),
        (["--draft-model", "/nonexistent/draft"], "--draft-model /nonexistent/draft: no such"),
        (["--kv-cache", "u2"], "argument --kv-cache: invalid choice"),
        (["--split-model", "everything"], "argument --split-model: invalid choice"),
    ],
)
def test_cli_engine_errors_exit_2_with_one_line(
    flags: list[str], says: str, app_home: AppPaths, chat_model_dir: Path
) -> None:
    result = run_app(["chat", "Hi", "--model", str(chat_model_dir), *flags], app_home)
    assert result.returncode == exits.USAGE
    last = result.stderr.strip().splitlines()[-1]
    assert says in last
