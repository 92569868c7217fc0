"""Shared engine benchmark: writes benchmarks/results/shared_engine.json.

The local server serving the model the chat window has open should load nothing again: it
answers with the window's pipeline (``pipelines/shared_serving.py``). Measured in one process
on the real SmolLM2-135M-Instruct Q4_1 GGUF (the test fixture), on CPU, through the app's own
objects (``AppContext``, ``ChatService.load_model``, ``build_server``):

* ``chat_load_mb``: resident memory the chat window's load (and its first answer) added;
* ``server_app_mb``: what building the server's app added (its modules: no model);
* ``shared_serve_mb``: what serving that model (the engine, and one answered request) added
  then; goal: under 10 % of the model's size;
* ``separate_serve_mb``: for comparison, what a server engine of its own for the same model
  adds (what the server did before the engine was shared: a continuous-batching copy).

Run: ``.venv/bin/python benchmarks/bench_shared_engine.py``.
"""

from __future__ import annotations

import gc
import logging
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from pipelines.generation import GenerationSettings  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "shared_engine.json"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
GOAL_SHARE = 0.10
SETTINGS = GenerationSettings(max_new_tokens=16, temperature=0.0)
log = logging.getLogger("bench_shared_engine")


def rss_mb() -> float:
    """This process's resident memory in MB (after a collection, so freed objects are gone)."""
    import psutil

    gc.collect()
    return float(psutil.Process().memory_info().rss) / 1024**2


def answer_once(engine: Any) -> str:
    """One short greedy chat request through the server's engine."""
    from pipelines.generation import Message
    from pipelines.serving_requests import ChatPrompt, RequestOptions

    prompt = ChatPrompt([Message("user", "What is the capital of France?")])
    return str(engine.submit(prompt, RequestOptions(SETTINGS), lambda _t: None).wait(300).text)


def measure(model: Path, home: Path) -> dict[str, Any]:
    """The three growths, in MB, measured one after the other in this process."""
    from app.context import AppContext
    from app.core.devices import DeviceInfo
    from app.core.paths import HOME_ENV, AppPaths
    from app.server.build import build_server
    from app.server.served_models import ServedModels
    from pipelines.core import CancelToken
    from pipelines.generation import Message
    from pipelines.shared_serving import SharedChatEngine

    paths = AppPaths.from_environment({HOME_ENV: str(home)})
    paths.ensure()
    with AppContext.create(paths, devices=[DeviceInfo("CPU", "CPU")]) as ctx:
        before = rss_mb()
        ctx.chat.load_model(model, "CPU")
        pipeline = ctx.chat.pipeline
        assert pipeline is not None
        # The window has answered once (its buffers are made), as a window with the model
        # open has; the server's app is built (its modules imported) before it serves.
        pipeline.generate([Message("user", "Hi")], SETTINGS, CancelToken(), lambda _t: None)
        loaded = rss_mb()
        _app, state = build_server(ctx, model)
        built = rss_mb()
        engine = state.served.engine_for(state.served.resolve(None))
        assert isinstance(engine, SharedChatEngine), "the server did not share the chat's model"
        shared_answer = answer_once(engine)
        shared = rss_mb()
        state.served.close()
        # The server as it was: an engine of its own for the same model (no shared turn).
        own = ServedModels(
            ctx.models,
            ctx.engines,
            device=lambda: "CPU",
            default=lambda: model,
            converted_cache=ctx.paths.converted_cache,
        )
        separate_engine = own.engine_for(own.resolve(None))
        separate_answer = answer_once(separate_engine)
        separate = rss_mb()
        own.close()
    return {
        "chat_load_mb": round(loaded - before, 1),
        "server_app_mb": round(built - loaded, 1),
        "shared_serve_mb": round(shared - built, 1),
        "separate_serve_mb": round(separate - shared, 1),
        "shared_answer": shared_answer,
        "separate_answer": separate_answer,
    }


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    model = load_builder().ensure_fixtures(["llm-real"]) / "llm-real" / MODEL_FILE
    contention = wait_until_quiet()
    with tempfile.TemporaryDirectory(prefix="bench-shared-engine-") as scratch:
        figures = measure(model, Path(scratch))
    model_mb = model.stat().st_size / 1024**2
    share = figures["shared_serve_mb"] / model_mb
    results: dict[str, Any] = {
        "model": f"{MODEL_FILE} ({model_mb:.1f} MB)",
        "model_mb": round(model_mb, 1),
        **figures,
        "shared_share_of_model": round(share, 3),
        "goal": f"shared_serve_mb < {GOAL_SHARE:.0%} of the model's size",
        "goal_met": share < GOAL_SHARE,
        "machine": {**contention.record(), "python": platform.python_version()},
    }
    write_results(RESULTS, results)
    return 0 if results["goal_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
