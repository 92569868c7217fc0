"""The app's faster layout of a GGUF, for benchmarks/bench_engines.py: made once, then measured.

The window, on a GGUF's first load on the CPU, re-lays out the converted model in the
background when a faster layout passes the quality check (``pipelines/gguf_relayout.py``);
later opens load the result. :func:`prime_relayout` does the same before the rounds (a first
load converts the file into ``cache``, then :func:`~pipelines.gguf_relayout.choose_layout`
decides), so the ``openvino re-laid`` variant times what a person gets from the second open on.
:func:`llama_perplexity` is llama.cpp's own perplexity of the same file on the same text, beside
the check's figures: both engines read the file alike when the two agree.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def prime_relayout(gguf: Path, cache: Path) -> dict[str, Any]:
    """Convert ``gguf`` into ``cache`` and decide its layout, in a child process: the decision
    and its cost. (Not in this process: Linux carries a parent's peak RSS over into the
    children it starts, and the measurement children would all report this one's.)"""
    return _child("prime", str(gguf), str(cache))


def _prime_relayout(gguf: Path, cache: Path) -> dict[str, Any]:
    from pipelines.chat import ChatModelConfig, ChatPipeline
    from pipelines.core import CancelToken
    from pipelines.gguf_relayout import choose_layout

    with ChatPipeline(ChatModelConfig(gguf, converted_dir=cache)) as pipe:
        pipe.load()
        folder = pipe.converted
    if folder is None:
        return {"error": "the GGUF was not converted into the cache"}
    started = time.perf_counter()
    decision = choose_layout(folder, gguf, CancelToken(), lambda _progress: None)
    return {**decision.to_dict(), "decide_s": time.perf_counter() - started}


def llama_perplexity(gguf: Path, threads: int) -> dict[str, Any]:
    """llama.cpp's perplexity of ``gguf`` on the quality check's text, in a child process."""
    return _child("perplexity", str(gguf), str(threads))


def _child(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, *args],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
        cwd=ROOT,
    )
    if done.returncode != 0:
        return {"error": done.stderr[-1000:]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _llama_perplexity(gguf: Path, threads: int) -> dict[str, Any]:
    """The child's work: the text's first tokens (llama.cpp's own tokenization) scored."""
    import llama_cpp
    import numpy as np

    from pipelines.layout_quality import TEXT_TOKENS, reference_text

    llm = llama_cpp.Llama(
        str(gguf), n_ctx=TEXT_TOKENS + 64, n_threads=threads, logits_all=True, verbose=False
    )
    tokens = llm.tokenize(reference_text().encode(), add_bos=False, special=False)[:TEXT_TOKENS]
    llm.eval(tokens)
    logits = np.asarray(llm.scores[: len(tokens)], dtype=np.float64)
    following = np.asarray(tokens[1:])
    logits = logits[: len(following)]
    top = logits.max(axis=-1, keepdims=True)
    log_total = np.log(np.exp(logits - top).sum(axis=-1)) + top[:, 0]
    nll = log_total - logits[np.arange(len(following)), following]
    return {"perplexity": math.exp(float(nll.mean())), "tokens": len(tokens)}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if sys.argv[1] == "prime":
        print(json.dumps(_prime_relayout(Path(sys.argv[2]), Path(sys.argv[3]))))
    else:
        print(json.dumps(_llama_perplexity(Path(sys.argv[2]), int(sys.argv[3]))))
