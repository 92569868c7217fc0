"""The GGUF's weights exported the OpenVINO way, cached so that a re-run does not redo them.

transformers reads the GGUF and dequantizes it (fp32), the result is saved as a Hugging Face
checkpoint, and the app's own conversion (``app.models.convert``: optimum-cli + NNCF in a
separate process) exports it to IR: int8, and int4 symmetric/asymmetric with group size
32/64/128. Everything lives under one cache folder keyed by the GGUF's content and the versions
of the packages that shape the result.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("bench_engines")

KEY_PACKAGES = ("openvino", "optimum-intel", "nncf", "transformers", "gguf", "tokenizers")
RECIPE = "2"
"""Part of the cache key: raised when the way the checkpoint is made changes."""


@dataclass(frozen=True)
class ExportFormat:
    """One IR weight format: ``int8``, or int4 with a group size and symmetry."""

    weights: str
    group_size: int | None = None
    sym: bool = False

    @property
    def name(self) -> str:
        if self.weights != "int4":
            return self.weights
        group = "channel" if self.group_size == -1 else f"g{self.group_size}"
        return f"int4-{'sym' if self.sym else 'asym'}-{group}"


ALL_FORMATS = (
    ExportFormat("int8"),
    *(ExportFormat("int4", group, sym) for sym in (True, False) for group in (32, 64, 128)),
    # Channel-wise symmetric: the layout NPUs need (the app's "npu" preset), here for CPU.
    ExportFormat("int4", -1, True),
)


def cache_folder(root: Path, gguf: Path) -> Path:
    """``root/<gguf stem>-<hash of its bytes and the package versions>``."""
    from pipelines.rag.loaders import file_sha256

    digest = hashlib.sha256(f"{file_sha256(gguf)} recipe {RECIPE}".encode())
    for package in KEY_PACKAGES:
        try:
            digest.update(f"{package}={importlib.metadata.version(package)};".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{package}=absent;".encode())
    return root / f"{gguf.stem}-{digest.hexdigest()[:12]}"


def hf_checkpoint(gguf: Path, cache: Path) -> Path:
    """The GGUF dequantized into a Hugging Face checkpoint (fp32 safetensors + tokenizer).

    ``AutoModelForCausalLM.from_pretrained(gguf_file=…)`` needs ``accelerate``, which OV Studio
    does not install; the same transformers loader is called on a model built from the GGUF's
    config instead (``load_gguf_checkpoint`` maps names and undoes llama.cpp's Q/K permutation).
    The tokenizer is rebuilt from the GGUF (see :func:`gguf_tokenizer`).
    """
    target = cache / "hf"
    if (target / "config.json").is_file():
        return target
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    log.info("dequantizing %s into a Hugging Face checkpoint", gguf.name)
    config = AutoConfig.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    tensors = load_gguf_checkpoint(str(gguf), return_tensors=True, model_to_load=model)["tensors"]
    outcome = model.load_state_dict(tensors, strict=False)
    tied = {"lm_head.weight"} if config.tie_word_embeddings else set()
    if set(outcome.missing_keys) - tied or outcome.unexpected_keys:
        raise RuntimeError(f"GGUF tensors do not fit the model: {outcome}")
    model.tie_weights()
    work = cache / "hf.partial"
    shutil.rmtree(work, ignore_errors=True)
    model.save_pretrained(work)
    gguf_tokenizer(gguf).save_pretrained(work)
    work.replace(target)
    return target


def gguf_tokenizer(gguf: Path) -> Any:
    """The GGUF's byte-level BPE tokenizer as a ``PreTrainedTokenizerFast``, checked against
    llama.cpp's own tokenization of a chat.

    transformers 5.5's GGUF tokenizer loader turns a ``gpt2`` tokenizer into a
    ``CodeLlamaTokenizer`` with the wrong end token (``<|im_start|>``), a BOS added to every
    text and a SentencePiece decoder; exported with it, a 1,024-token prompt became 4,550
    tokens and every answer was garbage. The pieces are taken from the GGUF metadata instead;
    the pre-tokenizer is SmolLM2's (llama.cpp's ``smollm``: digits one by one, then GPT-2's
    byte-level split), so other pre-tokenizer types are refused.
    """
    from gguf import GGUFReader
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    fields = GGUFReader(gguf).fields

    def field(name: str) -> Any:
        return fields[name].contents()

    if (field("tokenizer.ggml.model"), field("tokenizer.ggml.pre")) != ("gpt2", "smollm"):
        raise RuntimeError(f"{gguf.name}: only SmolLM2's byte-level BPE tokenizer is rebuilt")
    tokens: list[str] = field("tokenizer.ggml.tokens")
    merges = [tuple(merge.split(" ", 1)) for merge in field("tokenizer.ggml.merges")]
    vocab = {token: index for index, token in enumerate(tokens)}
    backend = Tokenizer(models.BPE(vocab=vocab, merges=merges, fuse_unk=False))
    backend.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    backend.decoder = decoders.ByteLevel()
    backend.post_processor = processors.ByteLevel(trim_offsets=False)
    control = [i for i, kind in enumerate(field("tokenizer.ggml.token_type")) if kind == 3]
    backend.add_special_tokens([AddedToken(tokens[i], special=True) for i in control])

    def token(key: str) -> str:
        return tokens[int(field(f"tokenizer.ggml.{key}"))]

    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token=token("bos_token_id"),
        eos_token=token("eos_token_id"),
        unk_token=token("unknown_token_id"),
        pad_token=token("padding_token_id"),
        chat_template=field("tokenizer.chat_template"),
    )
    _check_tokenizer(gguf, tokenizer)
    return tokenizer


def _check_tokenizer(gguf: Path, tokenizer: Any) -> None:
    from benchmarks.engines_prompts import TokenCounter

    counter = TokenCounter(gguf)
    chat = [
        {"role": "user", "content": "Café prices rose 12.5% in 2024 — why? Naïve answers: 42!"},
        {"role": "assistant", "content": "  Two  spaces,\ttabs\nand lines; émojis 🙂 too."},
    ]
    text = counter.formatter(messages=chat).prompt
    ours = tokenizer(text, add_special_tokens=False)["input_ids"]
    theirs = counter.llm.tokenize(text.encode(), add_bos=True, special=True)
    if ours != theirs:
        raise RuntimeError(f"rebuilt tokenizer differs from llama.cpp's: {ours} vs {theirs}")


def export_models(
    gguf: Path, cache: Path, formats: tuple[ExportFormat, ...] = ALL_FORMATS
) -> dict[str, dict[str, Any]]:
    """Each format's IR folder, converted once through the app's conversion and then reused.

    Returns ``{format name: {"folder", "convert_s", "size_bytes"}}``; ``convert_s`` is from the
    run that made the export (it is kept in ``exports.json`` next to them).
    """
    from app.models.contracts import folder_size
    from app.models.registry import ModelRegistry

    cache.mkdir(parents=True, exist_ok=True)
    registry = ModelRegistry(cache / "models.json", cache / "models")
    book = cache / "exports.json"
    known: dict[str, Any] = json.loads(book.read_text()) if book.is_file() else {}
    installed = {model.id: model.folder for model in registry.models()}
    results: dict[str, dict[str, Any]] = {}
    for export in formats:
        model_id = f"smollm2-{export.name}"
        entry = known.get(export.name, {})
        if "error" not in entry and (model_id not in installed or not entry):
            entry = known[export.name] = _export(gguf, cache, registry, export, model_id)
            book.write_text(json.dumps(known, indent=2))
            installed = {model.id: model.folder for model in registry.models()}
        if "error" in entry:
            results[export.name] = entry
            continue
        folder = installed[model_id]
        results[export.name] = {
            "folder": str(folder),
            "convert_s": entry["convert_s"],
            "size_bytes": folder_size(folder),
        }
    return results


def _export(
    gguf: Path, cache: Path, registry: Any, export: ExportFormat, model_id: str
) -> dict[str, Any]:
    """Convert one format; ``{"convert_s"}``, or ``{"error"}`` with the app's own sentence
    (e.g. a group size that does not divide the layer widths) — kept, so that a re-run does
    not try again."""
    from app.core.errors import UserError
    from app.core.model_tasks import ModelTask
    from app.models.convert import convert_model
    from app.models.convert_plan import ConvertRequest, Weights

    # Left by a run that did not finish its book-keeping: made again.
    if any(model.id == model_id for model in registry.models()):
        registry.remove(model_id)
    shutil.rmtree(registry.models_dir / model_id, ignore_errors=True)
    checkpoint = hf_checkpoint(gguf, cache)
    log.info("exporting %s through app.models.convert", export.name)
    started = time.perf_counter()
    request = ConvertRequest(
        str(checkpoint),
        Weights(export.weights),
        ModelTask.CHAT,
        group_size=export.group_size,
        sym=export.sym,
        name=model_id,
    )
    try:
        convert_model(request, registry)
    except UserError as error:
        log.warning("%s: %s", export.name, error)
        return {"error": str(error)}
    return {"convert_s": time.perf_counter() - started}
