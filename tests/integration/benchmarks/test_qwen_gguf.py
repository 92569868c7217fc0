"""The second-architecture GGUF of the engine benchmark (benchmarks/qwen_gguf.py), built tiny:
the app's GGUF reader and OpenVINO GenAI read it as the architecture it claims, llama.cpp runs
it, and a rebuild is skipped while the recipe is unchanged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks.qwen_gguf import qwen_gguf, tensor_plan, tiny
from pipelines.gguf import read_gguf_info, unsupported_reason

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

NEW_TOKENS = 8
SMOLLM2_VOCABULARY = 49152


@pytest.fixture(scope="module", params=["qwen2", "qwen3"])
def qwen_file(
    request: pytest.FixtureRequest, real_gguf: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    cache = tmp_path_factory.mktemp(f"qwen-{request.param}")
    return qwen_gguf(tiny(request.param), tokenizer_source=real_gguf, cache=cache)


# Reading the metadata parses the 49152-word vocabulary (seconds): one architecture suffices,
# as the reader does not depend on it.
@pytest.mark.parametrize("qwen_file", ["qwen2"], indirect=True)
def test_the_app_reads_the_architecture_quantization_and_tokenizer_it_was_given(
    qwen_file: Path,
) -> None:
    architecture = qwen_file.name.split("-")[0]
    info = read_gguf_info(qwen_file)
    plan = tensor_plan(tiny(architecture), SMOLLM2_VOCABULARY)
    assert (info.architecture, info.quantization) == (architecture, "Q4_1")
    assert set(info.weight_types) == {"Q4_1", "Q8_0", "F32"}
    assert info.parameters == sum(_count(dims) for _name, dims, _kind in plan)
    assert info.has_tokenizer and info.has_chat_template
    assert unsupported_reason(qwen_file, info) == ""


@pytest.mark.parametrize("architecture", ["qwen2", "qwen3"])
def test_each_architecture_has_its_own_attention_tensors(architecture: str) -> None:
    names = {name for name, _dims, _kind in tensor_plan(tiny(architecture), 10)}
    # Qwen2 has biases on q/k/v; Qwen3 has none, and normalises q and k per head instead.
    assert ("blk.0.attn_q.bias" in names) == (architecture == "qwen2")
    assert ("blk.0.attn_k_norm.weight" in names) == (architecture == "qwen3")
    assert "output.weight" not in names  # tied to the embedding, as in the real models


def test_openvino_genai_reads_the_file_directly_and_generates(qwen_file: Path) -> None:
    import openvino_genai

    pipeline = openvino_genai.LLMPipeline(str(qwen_file), "CPU")
    config = openvino_genai.GenerationConfig(max_new_tokens=NEW_TOKENS, ignore_eos=True)
    result = pipeline.generate(["Hello"], config)
    assert result.perf_metrics.get_num_generated_tokens() == NEW_TOKENS


def test_llama_cpp_reads_the_file_and_generates(qwen_file: Path) -> None:
    llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python (the bench extra)")
    llama = llama_cpp.Llama(str(qwen_file), n_ctx=64, n_threads=1, verbose=False)
    tokens = llama.tokenize(b"Hello", add_bos=True, special=True)
    made = []
    for token in llama.generate(tokens, temp=0.0):
        made.append(token)
        if len(made) == NEW_TOKENS:
            break
    assert len(made) == NEW_TOKENS and all(0 <= t < SMOLLM2_VOCABULARY for t in made)


def test_a_file_is_built_once_per_recipe(qwen_file: Path, real_gguf: Path) -> None:
    shape = tiny(qwen_file.name.split("-")[0])
    cache = qwen_file.parents[2]  # <cache>/qwen-gguf/<recipe>/<file>
    built = qwen_file.stat().st_mtime_ns
    assert qwen_gguf(shape, tokenizer_source=real_gguf, cache=cache) == qwen_file
    assert qwen_file.stat().st_mtime_ns == built
    other = qwen_gguf(replace(shape, seed=1), tokenizer_source=real_gguf, cache=cache)
    assert other != qwen_file and other.read_bytes() != qwen_file.read_bytes()
    assert not list(cache.rglob(".*partial"))


def _count(dims: tuple[int, ...]) -> int:
    count = 1
    for size in dims:
        count *= size
    return count
