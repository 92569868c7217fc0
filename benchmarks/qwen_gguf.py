"""A second architecture for the engine benchmark: a Qwen2 (or Qwen3) GGUF built offline.

``benchmarks/bench_engines.py`` measures OpenVINO against llama.cpp on SmolLM2 (a ``llama``
model); its ratios could be that one model's accident. This module writes a GGUF of another
architecture that both engines read, with no download:

* the shapes of a small real model (Qwen2.5-0.5B by default: hidden 896, 24 layers, 14 query
  and 2 key/value heads, intermediate 4864, tied embeddings, the q/k/v biases Qwen2 has; for
  ``qwen3`` Qwen3-0.6B's, with its per-head q/k norms and no biases);
* **random weights** (seeded, normal × 0.02, norms ones): speed and memory are those of a real
  model of this shape, the text it writes is noise, so no answer check applies to it;
* the tokenizer of the SmolLM2 fixture (its byte-level BPE, merges, token types, special ids
  and ChatML template, which is Qwen's own chat format), vocabulary 49152;
* the layout of llama.cpp's ``Q4_1`` files: every matrix Q4_1, the embedding Q8_0, norms and
  biases F32 — all written by ``gguf.quants``, nothing quantised by hand here.

A file is built once per recipe (this file's source, the shape, the tokenizer's file) and kept
under ``~/.cache/ov-studio/bench-engines/qwen-gguf/``. Building the 0.5B file takes minutes
(numpy quantisation); a rerun reuses it.

Run: ``python benchmarks/qwen_gguf.py --out DIR [--architecture qwen3] [--check]``.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOKENIZER_PREFIX = "tokenizer."
MATRIX_TYPE = "Q4_1"
EMBEDDING_TYPE = "Q8_0"
FILE_TYPE_Q4_1 = 3  # llama_ftype MOSTLY_Q4_1: what llama.cpp's converter writes for this mix


@dataclass(frozen=True)
class QwenShape:
    """The shape of the model to write; the defaults are Qwen2.5-0.5B's."""

    architecture: str = "qwen2"
    hidden: int = 896
    layers: int = 24
    heads: int = 14
    kv_heads: int = 2
    head_dim: int = 64
    intermediate: int = 4864
    context_length: int = 32768
    rope_base: float = 1_000_000.0
    norm_eps: float = 1e-6
    seed: int = 0

    @property
    def label(self) -> str:
        """A file name stem that says what the file is."""
        return (
            f"{self.architecture}-random-h{self.hidden}-l{self.layers}-"
            f"a{self.heads}-kv{self.kv_heads}-i{self.intermediate}.{MATRIX_TYPE}"
        )


QWEN2_5_0_5B = QwenShape()
QWEN3_0_6B = QwenShape(
    architecture="qwen3",
    hidden=1024,
    layers=28,
    heads=16,
    kv_heads=8,
    head_dim=128,
    intermediate=3072,
    context_length=40960,
)
SHAPES = {"qwen2": QWEN2_5_0_5B, "qwen3": QWEN3_0_6B}


def tiny(architecture: str = "qwen2") -> QwenShape:
    """A few-layer model of ``architecture`` that builds in seconds (for tests)."""
    return replace(
        SHAPES[architecture],
        hidden=64,
        layers=2,
        heads=4,
        kv_heads=2,
        head_dim=16,
        intermediate=128,
    )


def tensor_plan(shape: QwenShape, vocab: int) -> list[tuple[str, tuple[int, ...], str]]:
    """Every tensor the file holds: its GGUF name, its numpy shape (rows = outputs) and its
    type, in llama.cpp's order. No ``output.weight``: the embedding is tied, as in Qwen2.5-0.5B."""
    q_out, kv_out = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    plan: list[tuple[str, tuple[int, ...], str]] = [
        ("token_embd.weight", (vocab, shape.hidden), EMBEDDING_TYPE)
    ]
    for layer in range(shape.layers):
        block = f"blk.{layer}"
        plan.append((f"{block}.attn_norm.weight", (shape.hidden,), "F32"))
        for name, rows in (("attn_q", q_out), ("attn_k", kv_out), ("attn_v", kv_out)):
            plan.append((f"{block}.{name}.weight", (rows, shape.hidden), MATRIX_TYPE))
            if shape.architecture == "qwen2":
                plan.append((f"{block}.{name}.bias", (rows,), "F32"))
        if shape.architecture == "qwen3":
            plan.append((f"{block}.attn_q_norm.weight", (shape.head_dim,), "F32"))
            plan.append((f"{block}.attn_k_norm.weight", (shape.head_dim,), "F32"))
        plan += [
            (f"{block}.attn_output.weight", (shape.hidden, q_out), MATRIX_TYPE),
            (f"{block}.ffn_norm.weight", (shape.hidden,), "F32"),
            (f"{block}.ffn_gate.weight", (shape.intermediate, shape.hidden), MATRIX_TYPE),
            (f"{block}.ffn_up.weight", (shape.intermediate, shape.hidden), MATRIX_TYPE),
            (f"{block}.ffn_down.weight", (shape.hidden, shape.intermediate), MATRIX_TYPE),
        ]
    plan.append(("output_norm.weight", (shape.hidden,), "F32"))
    return plan


def _values(name: str, dims: tuple[int, ...], seed: int) -> Any:
    """The float32 values of one tensor: ones for a norm, normal × 0.02 otherwise, from a
    generator seeded by the model's seed and the tensor's name (so each is made on its own)."""
    import numpy as np

    if "norm" in name:
        return np.ones(dims, dtype=np.float32)
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    generator = np.random.default_rng(int.from_bytes(digest[:8], "little"))
    return (generator.standard_normal(dims, dtype=np.float32) * 0.02).astype(np.float32)


def recipe_key(shape: QwenShape, tokenizer_source: Path) -> str:
    """What decides the file's bytes: this module's source, the shape and the tokenizer file."""
    recipe = {
        "source": Path(__file__).read_text(encoding="utf-8"),
        "shape": asdict(shape),
        "tokenizer": [tokenizer_source.name, tokenizer_source.stat().st_size],
    }
    return hashlib.sha256(repr(sorted(recipe.items())).encode()).hexdigest()[:16]


TokenizerFields = dict[str, tuple[Any, Any, Any]]


def tokenizer_fields(source: Path) -> TokenizerFields:
    """The ``tokenizer.*`` metadata of the GGUF ``source``: each key's value, type and item
    type. Parsing a 49152-word vocabulary takes seconds, so it is read once per process."""
    stat = source.stat()
    return _tokenizer_fields(source.resolve(), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=2)
def _tokenizer_fields(source: Path, _size: int, _mtime_ns: int) -> TokenizerFields:
    import gguf

    found: TokenizerFields = {}
    for field in gguf.GGUFReader(source).fields.values():
        if field.name.startswith(TOKENIZER_PREFIX):
            value_type = field.types[0]
            sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
            found[field.name] = (field.contents(), value_type, sub_type)
    return found


def write_qwen_gguf(shape: QwenShape, tokenizer_source: Path, target: Path) -> Path:
    """Write the GGUF of ``shape`` to ``target`` (through a temporary file beside it, so a
    stopped build leaves no half-written model), with the tokenizer of ``tokenizer_source``."""
    import gguf
    import numpy as np
    from gguf.quants import quant_shape_to_byte_shape, quantize

    tokenizer = tokenizer_fields(tokenizer_source)
    vocab = len(tokenizer["tokenizer.ggml.tokens"][0])
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    writer = gguf.GGUFWriter(partial, shape.architecture)
    arch = shape.architecture
    writer.add_name(f"{arch} random weights, {shape.label} (benchmark only: writes noise)")
    writer.add_context_length(shape.context_length)
    writer.add_embedding_length(shape.hidden)
    writer.add_block_count(shape.layers)
    writer.add_feed_forward_length(shape.intermediate)
    writer.add_head_count(shape.heads)
    writer.add_head_count_kv(shape.kv_heads)
    writer.add_key_length(shape.head_dim)
    writer.add_value_length(shape.head_dim)
    writer.add_rope_freq_base(shape.rope_base)
    writer.add_layer_norm_rms_eps(shape.norm_eps)
    writer.add_file_type(FILE_TYPE_Q4_1)
    writer.add_quantization_version(gguf.GGML_QUANT_VERSION)
    for key, (value, value_type, sub_type) in tokenizer.items():
        writer.add_key_value(key, value, value_type, sub_type=sub_type)
    plan = tensor_plan(shape, vocab)
    for name, dims, kind in plan:
        qtype = gguf.GGMLQuantizationType[kind]
        if kind == "F32":
            writer.add_tensor_info(name, dims, np.dtype(np.float32), 4 * int(np.prod(dims)))
        else:
            byte_shape = quant_shape_to_byte_shape(dims, qtype)
            nbytes = int(np.prod(byte_shape))
            writer.add_tensor_info(name, byte_shape, np.dtype(np.uint8), nbytes, qtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    try:
        # One tensor at a time: the 0.5B model's floats never sit in memory together.
        for name, dims, kind in plan:
            values = _values(name, dims, shape.seed)
            qtype = gguf.GGMLQuantizationType[kind]
            writer.write_tensor_data(values if kind == "F32" else quantize(values, qtype))
        writer.close()
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def default_cache() -> Path:
    """Where built files are kept between runs (beside the benchmark's IR exports)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("ov-studio", appauthor=False)) / "bench-engines"


def smollm2_gguf() -> Path:
    """The real SmolLM2 GGUF fixture (role ``llm-real``) whose tokenizer the files take."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.fixtures import load_builder

    builder = load_builder()
    found = sorted((builder.ensure_fixtures(["llm-real"]) / "llm-real").glob("*.gguf"))
    if not found:
        reason = builder.unavailable_reason("llm-real") or "the fixture holds no .gguf"
        raise SystemExit(f"qwen_gguf: no tokenizer source ({reason})")
    return found[0]


def qwen_gguf(
    shape: QwenShape = QWEN2_5_0_5B,
    *,
    tokenizer_source: Path | None = None,
    cache: Path | None = None,
) -> Path:
    """The GGUF of ``shape``, built on first use and reused while its recipe is unchanged."""
    source = tokenizer_source or smollm2_gguf()
    folder = (cache or default_cache()) / "qwen-gguf" / recipe_key(shape, source)
    target = folder / f"{shape.label}.gguf"
    if not target.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        write_qwen_gguf(shape, source, target)
    return target


def check_engines(path: Path, tokens: int = 16) -> dict[str, str]:
    """Generate ``tokens`` greedy tokens from ``path`` with OpenVINO GenAI (reading the GGUF
    directly) and with llama.cpp; the texts (noise: random weights). Raises on a failed load."""
    import llama_cpp
    import openvino_genai

    pipeline = openvino_genai.LLMPipeline(str(path), "CPU")
    config = openvino_genai.GenerationConfig(max_new_tokens=tokens, ignore_eos=True)
    openvino_text = str(pipeline.generate("Hello", config))
    del pipeline
    llama = llama_cpp.Llama(str(path), n_ctx=256, n_threads=2, verbose=False)
    done: Any = llama("Hello", max_tokens=tokens, temperature=0.0)
    return {"openvino": openvino_text, "llama.cpp": str(done["choices"][0]["text"])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="a folder to copy the file into (default: the cache)")
    parser.add_argument("--architecture", choices=sorted(SHAPES), default="qwen2")
    parser.add_argument("--tiny", action="store_true", help="a 2-layer model (seconds to build)")
    parser.add_argument("--check", action="store_true", help="generate with both engines")
    args = parser.parse_args()
    shape = tiny(args.architecture) if args.tiny else SHAPES[args.architecture]
    path = qwen_gguf(shape)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        copy = out / path.name
        if not copy.is_file() or copy.stat().st_size != path.stat().st_size:
            import shutil

            copy.unlink(missing_ok=True)
            try:
                os.link(path, copy)  # the same bytes, no second copy on disk
            except OSError:
                shutil.copyfile(path, copy)
        path = copy
    print(path)
    if args.check:
        for engine, text in check_engines(path).items():
            print(f"{engine} (random weights, noise): {text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
