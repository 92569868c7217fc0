"""``ov-studio serve`` as a user runs it: a real subprocess on a loopback port of its own,
serving the real SmolLM2-135M GGUF to the official ``openai`` client; its token kept between
runs; SIGTERM ends it with exit 0 and frees the port; every bad start is one line and exit 2.
"""

from __future__ import annotations

import re
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import ollama
import openai
import pytest

from app.cli import exits
from app.core.paths import AppPaths
from tests.app_process import RunningApp, run_app

ADDRESS = re.compile(r"serves at (http://127\.0\.0\.1:(\d+))")
TOKEN = re.compile(r"^token: (\S+)$", re.MULTILINE)
READY = "Ctrl+C stops"


def _started(app: RunningApp) -> tuple[str, int, str]:
    """The URL, port and token the server printed once it is ready."""
    printed = app.wait_for(READY)
    address = ADDRESS.search(printed)
    token = TOKEN.search(printed)
    assert address and token, printed
    return address.group(1), int(address.group(2)), token.group(1)


def _models(url: str, token: str) -> httpx.Response:
    return httpx.get(f"{url}/v1/models", headers={"Authorization": f"Bearer {token}"}, timeout=30)


def _port_is_free(port: int) -> bool:
    probe = socket.socket()
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
    try:
        probe.bind(("127.0.0.1", port))
        probe.listen()
    except OSError:
        return False
    finally:
        probe.close()
    return True


def _one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_serve_answers_with_its_token_and_stops_on_a_signal(
    gguf_home: AppPaths, real_chat_model: Path, stop: signal.Signals
) -> None:
    with RunningApp(["serve", "--port", "0", "--model", str(real_chat_model)], gguf_home) as app:
        url, port, token = _started(app)
        assert port != 0
        assert "\nserving " in app.seen.decode()  # the model was loaded before the first request
        listed = _models(url, token)
        assert listed.status_code == 200, listed.text
        assert listed.json()["data"], listed.text
        assert _models(url, "wrong-token").status_code == 401
        client = openai.OpenAI(base_url=f"{url}/v1", api_key=token, max_retries=0, timeout=120)
        answer = client.chat.completions.create(
            model=listed.json()["data"][0]["id"],
            messages=[{"role": "user", "content": "What is the capital of France?"}],
            max_tokens=8,
            temperature=0,
        )
        assert answer.choices[0].message.content
        assert answer.usage is not None and 0 < answer.usage.completion_tokens <= 8
        code, _, err = app.stop(stop, timeout=60)
    assert code == exits.OK, err
    assert "Traceback" not in err
    assert _port_is_free(port)


def _token_of_a_run(home: AppPaths, *extra: str) -> tuple[str, str]:
    """Start ``serve`` (no model installed: nothing to load), return its URL and token."""
    with RunningApp(["serve", "--port", "0", *extra], home) as app:
        url, _, token = _started(app)
        assert _models(url, token).status_code == 200
        code, printed, err = app.stop(signal.SIGTERM)
    assert code == exits.OK, err
    assert "no chat model" in printed
    return url, token


def test_a_sigterm_as_soon_as_it_says_ctrl_c_stops_ends_it_cleanly(app_home: AppPaths) -> None:
    """The line is said once uvicorn's signal handlers are in place: a script that stops the
    server the moment it reads it gets exit 0, not death by the signal (-15)."""
    with RunningApp(["serve", "--port", "0"], app_home) as app:
        app.wait_for(READY)
        code, printed, err = app.stop(signal.SIGTERM)
    assert code == exits.OK, (printed, err)


def test_serve_keeps_its_token_between_runs_and_new_token_replaces_it(
    app_home: AppPaths,
) -> None:
    _, first = _token_of_a_run(app_home)
    _, again = _token_of_a_run(app_home)
    assert again == first
    with RunningApp(["serve", "--port", "0", "--new-token"], app_home) as app:
        url, _, replaced = _started(app)
        assert replaced != first
        assert _models(url, first).status_code == 401  # old clients stop working
        assert _models(url, replaced).status_code == 200
        assert app.stop()[0] == exits.OK
    _, kept = _token_of_a_run(app_home)
    assert kept == replaced


@pytest.fixture
def taken_port() -> Iterator[int]:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        yield int(holder.getsockname()[1])
    finally:
        holder.close()


def test_serve_on_a_port_in_use_says_so_in_one_line(app_home: AppPaths, taken_port: int) -> None:
    result = run_app(["serve", "--port", str(taken_port)], app_home, timeout=120)
    assert result.returncode == exits.USAGE
    assert f"Port {taken_port} is in use" in _one_error_line(result.stderr)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--host", "192.0.2.1", "--lan"], "192.0.2.1 is not an address of this machine"),
        (["--host", "192.0.2.1"], "--lan"),
        (["--host", "0.0.0.0"], "--lan"),
        (["--port", "70000"], "--port must be 0–65535"),
        (["--port", "-1"], "--port must be 0–65535"),
        (["--model", "nonexistent"], "--model nonexistent: no such file"),
    ],
)
def test_serve_refuses_a_bad_start_in_one_line(
    app_home: AppPaths, args: list[str], said: str
) -> None:
    result = run_app(["serve", *args], app_home, timeout=120)
    assert result.returncode == exits.USAGE
    assert said in _one_error_line(result.stderr)


def test_a_refused_start_with_new_token_keeps_the_token(
    app_home: AppPaths, taken_port: int
) -> None:
    _, before = _token_of_a_run(app_home)
    for refused in (["--host", "0.0.0.0"], ["--port", str(taken_port)], ["--model", "nowhere"]):
        result = run_app(["serve", "--new-token", *refused], app_home, timeout=120)
        assert result.returncode == exits.USAGE, result.stderr
    _, after = _token_of_a_run(app_home)
    assert after == before  # clients using it keep working


def test_serve_lan_refusal_names_the_opt_in(app_home: AppPaths) -> None:
    line = _one_error_line(run_app(["serve", "--host", "0.0.0.0"], app_home).stderr)
    assert "other machines" in line and "--lan" in line


def test_serve_help_reads_well(app_home: AppPaths) -> None:
    result = run_app(["serve", "--help"], app_home)
    assert result.returncode == exits.OK
    text = " ".join(result.stdout.split())
    for words in (
        "--host HOST",
        "--port PORT",
        "--model ID|PATH",
        "--lan",
        "--new-token",
        "--no-token-on-loopback",
        "Any program or web page script running on this computer can then use your models",
        "Authorization: Bearer TOKEN",
        "Only this machine can connect unless --lan is given",
    ):
        assert words in text, text
    assert result.stderr == ""


def test_no_token_on_loopback_lets_the_ollama_package_in_without_one(app_home: AppPaths) -> None:
    with RunningApp(["serve", "--port", "0", "--no-token-on-loopback"], app_home) as app:
        url, _, _ = _started(app)
        assert "programs on this computer need no token" in app.seen.decode()
        assert ollama.Client(host=url).list().models == []
        code, _, err = app.stop(signal.SIGTERM)
    assert code == exits.OK, err
    # The flag is for that run: the next one wants the token again.
    with RunningApp(["serve", "--port", "0"], app_home) as app:
        url, _, _ = _started(app)
        with pytest.raises(ollama.ResponseError) as refused:
            ollama.Client(host=url).list()
        assert refused.value.status_code == 401
        app.stop(signal.SIGTERM)
