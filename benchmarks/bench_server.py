"""Server benchmark: writes benchmarks/results/server.json.

Part ``concurrency``: the real server (:class:`app.server.runner.ServerRunner`, uvicorn on a
loopback port, in this process) serving the real SmolLM2-135M (Q4_1 GGUF, fixture
``llm-real``) to 1, 4 and 8 clients at once — each a program of its own (this script with
``--client``, warmed up by one request) with the official ``openai`` client, streaming chat
completions one after another. Aggregate throughput is the completion tokens all
clients received (counted by the server: ``usage``, asked for with ``include_usage``) over the
round's wall time; TTFT is the time from sending a request to its first content chunk, as the
client sees it (p50/p95 over every request of the round). Goal: 8 clients reach at least 3× the
aggregate throughput of one (continuous batching, not a queue).

OpenAI's API has no ``ignore_eos``, so every request asks for the same long answer (a story:
it rarely ends before ``MAX_TOKENS``) with temperature 0, and throughput counts the tokens
actually generated, never ``MAX_TOKENS`` × requests.

Part ``api_overhead``: one client, the same request three ways — through the HTTP API, straight
to the :class:`pipelines.batching.BatchingEngine` the server uses (same engine, same settings),
and through :class:`pipelines.chat.ChatPipeline` (GenAI's ``LLMPipeline``, what the chat window
uses). Per request: tokens/s (completion tokens over submit-to-end) and TTFT. Goal: the API costs
at most 5 % of the engine's tokens/s and 20 ms of its TTFT.

The model is loaded and warm before timing; the machine is checked quiet (benchmarks/machine.py).
Run: ``.venv/bin/python benchmarks/bench_server.py`` (``--quick``: a few requests, no waiting for
a quiet machine — to check the script, not to publish numbers).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import MAX_WAIT_S, wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "server.json"
TOKEN_ENV = "OV_STUDIO_BENCH_TOKEN"  # to the client programs (not on their command line)
log = logging.getLogger("bench_server")
CLIENTS = (1, 4, 8)
REQUESTS_PER_CLIENT = 4
OVERHEAD_REQUESTS = 12
MAX_TOKENS = 128
PROMPT = (
    "Write a long, detailed story about a lighthouse keeper who finds a message in a bottle. "
    "Describe the sea, the weather, the lighthouse and every step of the keeper's day."
)
GOALS = {
    "eight_clients_over_one_at_least": 3.0,
    "api_tokens_per_s_loss_at_most": 0.05,
    "api_ttft_overhead_ms_at_most": 20.0,
}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


class ApiClient:
    """One client of the server: the official ``openai`` package, streaming."""

    def __init__(self, url: str, token: str, model: str) -> None:
        import openai

        self.client = openai.OpenAI(base_url=f"{url}/v1", api_key=token, max_retries=0)
        self.model = model

    def request(self) -> dict[str, float]:
        """One streamed answer: its TTFT (ms), completion tokens and duration (ms)."""
        sent = time.perf_counter()
        first = 0.0
        tokens = 0
        stream = self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "user", "content": PROMPT}],
            max_tokens=MAX_TOKENS,
            temperature=0.0,
            stream=True,
            stream_options={"include_usage": True},
        )
        for chunk in stream:
            if not first and chunk.choices and chunk.choices[0].delta.content:
                first = time.perf_counter()
            if chunk.usage is not None:
                tokens = chunk.usage.completion_tokens
        ended = time.perf_counter()
        return {
            "ttft_ms": 1000.0 * (first - sent),
            "tokens": float(tokens),
            "duration_ms": 1000.0 * (ended - sent),
            "sent": sent,
            "ended": ended,
        }


def client_main(url: str, model: str) -> int:
    """A client program (``--client``): one unmeasured request, "ready", then for each line
    "go N" from the parent N requests one after another, printed as one JSON line.

    Clients of a local server are other programs, long-lived (an editor, an agent): in their
    own processes, their HTTP and JSON work does not contend with the server for this
    interpreter's lock, as threads here would, and their first request (a connection, the
    client library's first-use work) is not what is measured. ``time.perf_counter`` is the
    system's monotonic clock, so the parent compares the times of all clients.
    """
    import json

    client = ApiClient(url, os.environ[TOKEN_ENV], model)
    client.request()
    print("ready", flush=True)
    for line in sys.stdin:
        count = int(line.split()[1])
        print(json.dumps([client.request() for _ in range(count)]), flush=True)
    return 0


class ClientPrograms:
    """``count`` client programs (this script with ``--client``), started and warmed up."""

    def __init__(self, url: str, token: str, model: str, count: int) -> None:
        import subprocess

        env = {**os.environ, TOKEN_ENV: token}
        command = [sys.executable, __file__, "--client", url, model]
        self.children = [
            subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
            )
            for _ in range(count)
        ]
        for child in self.children:
            assert child.stdout is not None
            if child.stdout.readline().strip() != "ready":
                raise RuntimeError("a client program did not start")

    def run(self, each: int) -> list[dict[str, float]]:
        """Every client at once, ``each`` requests one after another in each."""
        import json

        for child in self.children:
            assert child.stdin is not None
            child.stdin.write(f"go {each}\n")
            child.stdin.flush()
        runs: list[dict[str, float]] = []
        for child in self.children:
            assert child.stdout is not None
            line = child.stdout.readline()
            if not line:
                raise RuntimeError(f"a client program failed (exit {child.wait()})")
            runs.extend(json.loads(line))
        return runs

    def close(self) -> None:
        """End the client programs."""
        for child in self.children:
            assert child.stdin is not None
            child.stdin.close()
            child.wait(timeout=60)


def concurrency_round(url: str, token: str, model: str, clients: int, each: int) -> dict[str, Any]:
    """``clients`` client programs, ``each`` requests one after another: aggregate tokens/s
    over the round's wall time (first request sent to last answer ended), TTFTs."""
    programs = ClientPrograms(url, token, model, clients)
    try:
        runs = programs.run(each)
    finally:
        programs.close()
    wall = max(run["ended"] for run in runs) - min(run["sent"] for run in runs)
    ttfts = [run["ttft_ms"] for run in runs]
    tokens = sum(run["tokens"] for run in runs)
    return {
        "clients": clients,
        "requests": len(runs),
        "completion_tokens": int(tokens),
        "mean_tokens_per_request": round(tokens / len(runs), 1),
        "wall_s": round(wall, 2),
        "aggregate_tokens_per_s": round(tokens / wall, 1),
        "ttft_p50_ms": round(percentile(ttfts, 0.50), 1),
        "ttft_p95_ms": round(percentile(ttfts, 0.95), 1),
    }


def summarize(runs: list[dict[str, float]]) -> dict[str, float]:
    """Medians of one path's single-client requests."""
    return {
        "tokens_per_s": round(
            statistics.median(1000.0 * run["tokens"] / run["duration_ms"] for run in runs), 1
        ),
        "ttft_ms": round(statistics.median(run["ttft_ms"] for run in runs), 1),
        "mean_tokens_per_request": round(statistics.mean(run["tokens"] for run in runs), 1),
    }


def engine_request(engine: Any, settings: Any) -> dict[str, float]:
    """The same request straight to the server's BatchingEngine (no HTTP)."""
    from pipelines.generation import Message
    from pipelines.serving_requests import ChatPrompt, RequestOptions

    first: list[float] = []
    sent = time.perf_counter()

    def on_text(_: str) -> None:
        if not first:
            first.append(time.perf_counter())

    request = engine.submit(
        ChatPrompt([Message("user", PROMPT)]), RequestOptions(settings), on_text
    )
    completion = request.wait(timeout=600)
    ended = time.perf_counter()
    return {
        "ttft_ms": 1000.0 * (first[0] - sent),
        "tokens": float(completion.completion_tokens),
        "duration_ms": 1000.0 * (ended - sent),
    }


def chat_pipeline_request(pipe: Any, settings: Any) -> dict[str, float]:
    """The same request through ChatPipeline (GenAI's LLMPipeline, the chat window's path)."""
    from pipelines.core import CancelToken
    from pipelines.generation import Message

    first: list[float] = []
    sent = time.perf_counter()

    def on_text(_: str) -> None:
        if not first:
            first.append(time.perf_counter())

    result = pipe.generate([Message("user", PROMPT)], settings, CancelToken(), on_text)
    ended = time.perf_counter()
    return {
        "ttft_ms": 1000.0 * (first[0] - sent),
        "tokens": float(pipe.count_tokens(result.text)),  # text re-tokenized: ±1 token
        "duration_ms": 1000.0 * (ended - sent),
    }


def main() -> int:
    from app.context import AppContext
    from app.core.devices import DeviceInfo
    from app.core.paths import HOME_ENV, AppPaths
    from app.server.build import build_server
    from app.server.runner import ServerRunner
    from pipelines.chat import ChatModelConfig, ChatPipeline
    from pipelines.generation import GenerationSettings
    from tests.fixtures.real_models import SMOLLM2_FILE

    if len(sys.argv) == 4 and sys.argv[1] == "--client":
        return client_main(sys.argv[2], sys.argv[3])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few requests; do not wait")
    args = parser.parse_args()
    each, overhead_n = (1, 2) if args.quick else (REQUESTS_PER_CLIENT, OVERHEAD_REQUESTS)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    gguf = load_builder().ensure_fixtures(["llm-real"]) / "llm-real" / SMOLLM2_FILE
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "model": "SmolLM2-135M-Instruct Q4_1 GGUF (real weights), CPU",
        "max_tokens": MAX_TOKENS,
        "prompt": PROMPT,
        "quick": args.quick,
    }
    with tempfile.TemporaryDirectory(prefix="bench-server-") as name:
        os.environ[HOME_ENV] = name
        paths = AppPaths.from_environment()
        paths.ensure()
        with AppContext.create(paths, devices=[DeviceInfo("CPU", "CPU")]) as ctx:
            app, state = build_server(ctx, gguf)
            runner = ServerRunner(app, "127.0.0.1", 0)
            url = runner.start().url
            try:
                served = state.served.resolve(None)
                engine = state.served.engine_for(served)
                results["max_sequences"] = engine.config.max_sequences
                defaults = state.defaults()
                settings = GenerationSettings(  # what the API builds for these requests
                    max_new_tokens=MAX_TOKENS,
                    temperature=0.0,
                    top_p=defaults.top_p,
                    top_k=defaults.top_k,
                    repetition_penalty=defaults.repetition_penalty,
                )
                pipe = ChatPipeline(
                    ChatModelConfig(gguf, "CPU", converted_dir=paths.converted_cache)
                )
                pipe.load()
                log.info("warming up")
                ApiClient(url, state.token, served.id).request()
                engine_request(engine, settings)
                chat_pipeline_request(pipe, settings)
                contention = wait_until_quiet(5.0 if args.quick else MAX_WAIT_S)
                rounds = []
                for clients in CLIENTS:
                    log.info("%d concurrent client(s)", clients)
                    rounds.append(concurrency_round(url, state.token, served.id, clients, each))
                ratio = rounds[-1]["aggregate_tokens_per_s"] / rounds[0]["aggregate_tokens_per_s"]
                results["concurrency"] = {
                    "requests_per_client": each,
                    "rounds": rounds,
                    "eight_over_one": round(ratio, 2),
                    "goal_met": ratio >= GOALS["eight_clients_over_one_at_least"],
                }
                log.info("one client: API, engine, ChatPipeline")
                paths_runs: dict[str, list[dict[str, float]]] = {
                    "api": [],
                    "engine": [],
                    "chat_pipeline": [],
                }
                client = ClientPrograms(url, state.token, served.id, 1)
                for _ in range(overhead_n):  # interleaved: drift hits the three alike
                    paths_runs["api"].extend(client.run(1))
                    paths_runs["engine"].append(engine_request(engine, settings))
                    paths_runs["chat_pipeline"].append(chat_pipeline_request(pipe, settings))
                client.close()
                pipe.close()
            finally:
                runner.stop()
                state.served.close()
    overhead = {path: summarize(runs) for path, runs in paths_runs.items()}
    loss = 1.0 - overhead["api"]["tokens_per_s"] / overhead["engine"]["tokens_per_s"]
    extra_ttft = overhead["api"]["ttft_ms"] - overhead["engine"]["ttft_ms"]
    results["api_overhead"] = {
        "requests": overhead_n,
        **overhead,
        "api_tokens_per_s_loss": round(loss, 3),
        "api_ttft_overhead_ms": round(extra_ttft, 1),
        "goal_met": loss <= GOALS["api_tokens_per_s_loss_at_most"]
        and extra_ttft <= GOALS["api_ttft_overhead_ms_at_most"],
    }
    results["goals"] = GOALS
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
