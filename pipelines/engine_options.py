"""How the chat engine runs a model: KV-cache precision, prefix caching, cache eviction,
prompt-lookup and speculative decoding, sparse attention, weight sparsity, and splitting the
model across CPU sockets or GPUs.

OpenVINO GenAI offers each of these as a load-time option of ``LLMPipeline`` (a property, or a
field of the ``SchedulerConfig`` of its paged-attention backend) plus, for the two assisted
decodings, a few fields of every ``GenerationConfig``. :class:`EngineOptions` is the one frozen
record of them; :func:`load_properties` turns it into ``LLMPipeline`` keyword arguments,
:func:`apply_to_generation` completes a generation config, and :meth:`EngineOptions.check`
refuses the combinations the device or backend cannot run, with one sentence naming the
option (its ``field``), before anything is loaded.

REPL use::

    options = EngineOptions(kv_cache_precision="u4", prompt_lookup=True)
    options.check("CPU")
    pipe = ChatPipeline(ChatModelConfig(Path("model.gguf"), engine=options))
"""

from __future__ import annotations

import functools
import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pipelines.core import InvalidInputError

KvCachePrecision = Literal["default", "f16", "u8", "u4"]
"""``default``: the device's own choice (u8 on CPU since OpenVINO 2024.x, f16 on GPU)."""

KV_CACHE_PRECISIONS: tuple[KvCachePrecision, ...] = ("default", "f16", "u8", "u4")

#: Tokens the prompt-lookup or draft model proposes per step, and the longest n-gram prompt
#: lookup matches. GenAI's samples use 5 and 3; both are checked by the engine benchmark.
ASSISTANT_TOKENS = 5
MAX_NGRAM_SIZE = 3

#: Cache eviction keeps the first and the most recent tokens of a sequence and evicts from the
#: middle down to ``eviction_cache_tokens`` (SnapKV-style scoring, GenAI's ``NORM_SUM``).
EVICTION_START_TOKENS = 32
EVICTION_RECENT_TOKENS = 128
MIN_EVICTION_CACHE_TOKENS = 512
MAX_EVICTION_CACHE_TOKENS = 65_536
#: Tokens per KV-cache block on the CPU (GenAI's kv_cache_manager.hpp: 32 on CPU, 16 on GPU,
#: 256 on GPU with XAttention); eviction sizes are kept to whole CPU blocks, which are whole
#: GPU blocks too.
KV_BLOCK_TOKENS = 32

Parallelism = Literal["off", "sockets", "gpus"]
"""``sockets``: tensor parallelism across the CPU's sockets (NUMA nodes); ``gpus``: pipeline
parallelism across the machine's GPUs."""

PARALLELISMS: tuple[Parallelism, ...] = ("off", "sockets", "gpus")

#: OpenVINO's ``MODEL_DISTRIBUTION_POLICY`` (``ov::hint::model_distribution_policy``) per mode.
#: openvinotoolkit/openvino, src/inference/include/openvino/runtime/properties.hpp: the policy
#: splits a model "between CPU sockets/NUMA nodes or between different GPUs". The CPU plugin
#: accepts TENSOR_PARALLEL only (its config: "CPU plugin only support
#: {ov::hint::ModelDistributionPolicy::TENSOR_PARALLEL}"); the GPU plugin has no such property,
#: and several GPUs run one model through the HETERO device, which accepts PIPELINE_PARALLEL
#: only (src/plugins/hetero/src/config.cpp; docs hetero-execution.rst, "Pipeline Parallelism":
#: ``compile_model(model, "HETERO:GPU.1,GPU.2", model_distribution_policy(PIPELINE_PARALLEL))``).
#: Both messages are in the 2026.4 wheel's plugin libraries measured here.
DISTRIBUTION_POLICY: dict[Parallelism, str] = {
    "sockets": "TENSOR_PARALLEL",
    "gpus": "PIPELINE_PARALLEL",
}

#: The share of zero weights above which the CPU plugin decompresses sparse weights on the fly
#: (``CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE``); the sparsity seed document uses 0.5.
WEIGHT_SPARSITY_RATE = 0.5


@dataclass(frozen=True)
class EngineOptions:
    """Load-time engine settings of one chat model; the defaults are the measured safe ones."""

    kv_cache_precision: KvCachePrecision = "default"
    """Precision of the KV cache: lower holds longer contexts in less memory."""
    prefix_caching: bool = True
    """Keep the KV cache of a conversation's earlier turns, so turn N does not recompute them."""
    cache_eviction: bool = False
    """Bound a sequence's KV cache at ``eviction_cache_tokens`` by evicting the least-attended
    middle tokens (long conversations in bounded memory, at some cost in recall)."""
    eviction_cache_tokens: int = 2048
    prompt_lookup: bool = False
    """Propose tokens by matching the answer's last n-gram in the prompt: faster answers that
    quote their sources, identical text under greedy decoding."""
    draft_model: Path | None = None
    """A smaller model with the same tokenizer that proposes tokens (speculative decoding): an
    OpenVINO model folder."""
    sparse_attention: bool = False
    """Skip attention blocks that matter little while reading a long prompt (XAttention)."""
    weight_sparsity: bool = False
    """Decompress sparse weights on the fly (pays only on CPUs with AMX)."""
    parallelism: Parallelism = "off"
    """Split the model across the CPU's sockets (``sockets``) or the machine's GPUs (``gpus``):
    offered only where the machine has two (see :func:`offered_parallelism`)."""

    @property
    def is_default(self) -> bool:
        """Whether every option is at its default (the pipeline is built as GenAI builds it)."""
        return self == EngineOptions()

    def check(
        self,
        device: str,
        *,
        has_amx: bool | None = None,
        vision: bool = False,
        hardware: ParallelHardware | None = None,
    ) -> None:
        """Refuse options that ``device`` (a concrete device: ``CPU``, ``GPU.0``, ``NPU``)
        cannot run, or that cannot run together.

        ``has_amx``: whether the CPU has AMX (default: this machine's, see :func:`cpu_has_amx`).
        ``vision``: the model is a vision-language model (GenAI's ``VLMPipeline``).
        ``hardware``: the sockets and GPUs a split model could use (the app reads them:
        ``app.core.devices.parallel_hardware``); default one socket and no GPU, where
        splitting is refused.

        Each refusal names where OpenVINO GenAI (openvinotoolkit/openvino.genai, master of
        2026-08, the 2026.4 wheel measured here) decides it, or the measurement behind it.

        Raises:
            InvalidInputError: one sentence; ``field`` names the option to change.
        """
        kind = device.split(".", 1)[0].upper()
        if kind == "NPU" and not self.is_default:
            # src/cpp/src/llm/pipeline.cpp should_use_stateful_pipeline(): NPU always gets the
            # stateful (SDPA) pipeline, which has no scheduler, paged KV cache or its options.
            changed = next(name for name in _FIELD_ORDER if _differs(self, name))
            raise InvalidInputError(
                "The NPU runs chat models with a fixed-size cache: engine settings other than "
                "the defaults apply on the CPU or GPU only.",
                field=changed,
            )
        if self.prompt_lookup and self.draft_model is not None:
            # src/cpp/src/continuous_batching/pipeline.cpp: "Speculative decoding and prompt
            # lookup decoding are mutually exclusive".
            raise InvalidInputError(
                "Prompt lookup and a draft model cannot be used together: choose one.",
                field="prompt_lookup",
            )
        if vision and (self.prompt_lookup or self.draft_model is not None):
            # src/cpp/src/visual_language/pipeline.cpp: VLMPipeline only drops a false
            # prompt_lookup; neither its own pipeline nor its continuous-batching adapter
            # implements assisted decoding.
            raise InvalidInputError(
                "Vision models cannot use prompt lookup or a draft model; turn them off for "
                "this model.",
                field="prompt_lookup" if self.prompt_lookup else "draft_model",
            )
        if self.weight_sparsity and kind != "CPU":
            # CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE is a property of the CPU plugin only.
            raise InvalidInputError(
                "Weight sparsity is a CPU setting; it has no effect on other devices.",
                field="weight_sparsity",
            )
        if self.cache_eviction and self.prefix_caching:
            # Measured on the real SmolLM2 with GenAI 2026.4: with both, the second or third
            # turn of a chat fails in block_manager.hpp ("m_ref_count > 0", or at line 416),
            # whatever the SnapKV window: evicted blocks cannot be shared with the prefix cache.
            raise InvalidInputError(
                "Cache eviction cannot be combined with prefix caching: turn prefix caching "
                "off to use it.",
                field="cache_eviction",
            )
        if self.cache_eviction and not (
            MIN_EVICTION_CACHE_TOKENS <= self.eviction_cache_tokens <= MAX_EVICTION_CACHE_TOKENS
        ):
            raise InvalidInputError(
                f"The evicting cache must hold {MIN_EVICTION_CACHE_TOKENS:,} to "
                f"{MAX_EVICTION_CACHE_TOKENS:,} tokens.",
                field="eviction_cache_tokens",
            )
        if self.weight_sparsity and not (cpu_has_amx() if has_amx is None else has_amx):
            raise InvalidInputError(
                "This CPU has no AMX units, and sparse weights only run faster with them; "
                "the setting would slow answers down.",
                field="weight_sparsity",
            )
        if self.parallelism != "off":
            _check_parallelism(self.parallelism, kind, hardware or ParallelHardware(), vision)
        # Not refused: sparse attention on the GPU (GenAI's kv_cache_manager.hpp sizes 256-token
        # GPU blocks for XAttention; the default TRISHAPE mode is a scheduler mask, device-
        # independent); a u4 KV cache on the GPU (GenAI's kv_cache_manager.hpp handles u4
        # caches whatever the device, and no source found says the GPU plugin refuses it; if
        # a driver does, the load fails with OpenVINO's reason and the previous model stays).


_FIELD_ORDER = (
    "kv_cache_precision",
    "prefix_caching",
    "cache_eviction",
    "eviction_cache_tokens",
    "prompt_lookup",
    "draft_model",
    "sparse_attention",
    "weight_sparsity",
    "parallelism",
)


@dataclass(frozen=True)
class ParallelHardware:
    """What a split model could run across: the CPU's sockets and the machine's GPUs."""

    cpu_sockets: int = 1
    """NUMA nodes with CPUs: what the CPU plugin's tensor parallelism splits across."""
    gpus: tuple[str, ...] = ()
    """The GPUs as OpenVINO names them (``GPU.0``, ``GPU.1``)."""


def offered_parallelism(hardware: ParallelHardware) -> tuple[Parallelism, ...]:
    """The split modes ``hardware`` has: ``sockets`` with two sockets or more, ``gpus`` with
    two GPUs or more (``off`` is always possible and not listed)."""
    modes: list[Parallelism] = []
    if hardware.cpu_sockets >= 2:
        modes.append("sockets")
    if len(hardware.gpus) >= 2:
        modes.append("gpus")
    return tuple(modes)


def _check_parallelism(
    mode: Parallelism, kind: str, hardware: ParallelHardware, vision: bool
) -> None:
    """Refuse a split the model, ``kind`` of device or machine cannot run (see ``check``)."""
    if vision:
        # pipelines.vision_chat builds VLMPipeline on one device: its several models are not
        # split by the LLM's distribution policy.
        raise InvalidInputError(
            "Vision models run on one device: splitting the model applies to text chat models.",
            field="parallelism",
        )
    if mode == "sockets" and kind != "CPU":
        raise InvalidInputError(
            "Splitting the model across CPU sockets needs the CPU as the chat device.",
            field="parallelism",
        )
    if mode == "gpus" and kind != "GPU":
        raise InvalidInputError(
            "Splitting the model across GPUs needs a GPU as the chat device.",
            field="parallelism",
        )
    if mode not in offered_parallelism(hardware):
        raise InvalidInputError(
            "This computer has one CPU socket, so there is nothing to split the model across."
            if mode == "sockets"
            else "This computer has fewer than two GPUs to split the model across.",
            field="parallelism",
        )


def parallel_device(device: str, available: Sequence[str]) -> str:
    """The device string that runs a model split across every GPU of ``available`` (OpenVINO's
    device names), ``device`` (the chosen GPU) first: ``HETERO:GPU.1,GPU.0``.

    HETERO's pipeline parallelism fills the devices in this order (hetero-execution.rst).
    """
    gpus = [name for name in available if name.split(".", 1)[0].upper() == "GPU"]
    first = device if device in gpus else gpus[0] if gpus else device
    return "HETERO:" + ",".join([first, *(name for name in gpus if name != first)])


def _differs(options: EngineOptions, name: str) -> bool:
    return bool(getattr(options, name) != getattr(EngineOptions(), name))


def scheduler_config(options: EngineOptions) -> Any:
    """The paged-attention backend's ``SchedulerConfig`` for ``options``.

    Sized as ``LLMPipeline`` sizes its own for one conversation (its latency-oriented
    default): the KV cache grows as needed, and a whole prompt is read in one step.
    """
    import openvino_genai as ov_genai

    config = ov_genai.SchedulerConfig()
    config.max_num_batched_tokens = 2**31 - 1  # read a long prompt in one step (lowest TTFT)
    config.enable_prefix_caching = options.prefix_caching
    if options.cache_eviction:
        config.use_cache_eviction = True
        config.cache_eviction_config = ov_genai.CacheEvictionConfig(
            EVICTION_START_TOKENS,
            EVICTION_RECENT_TOKENS,
            eviction_cache_size(options.eviction_cache_tokens),
            ov_genai.AggregationMode.NORM_SUM,
            # No SnapKV window (GenAI's default is 8): with one, a prompt whose length ends
            # just past the start block (33-39 tokens with start_size 32: "Say hello." under
            # SmolLM2's template) fails in cache_eviction.cpp with "new_scores_size >=
            # num_snapkv_scores". Without it the scores accumulate as if token by token (H2O).
            snapkv_window_size=0,
        )
    if options.sparse_attention:
        config.use_sparse_attention = True
        config.sparse_attention_config = ov_genai.SparseAttentionConfig()
    return config


def eviction_cache_size(tokens: int) -> int:
    """``tokens`` rounded down to whole KV blocks (``KV_BLOCK_TOKENS``).

    GenAI's cache_eviction.hpp wants the eviction sizes in whole blocks; the user's figure is
    kept as typed and only the engine sees the rounded one (at most 31 tokens less).
    """
    return max(MIN_EVICTION_CACHE_TOKENS, tokens - tokens % KV_BLOCK_TOKENS)


def load_properties(
    options: EngineOptions, *, draft_folder: Path | None = None, device: str = "CPU"
) -> dict[str, Any]:
    """``LLMPipeline`` keyword arguments for ``options`` (none when all are defaults, so the
    pipeline is exactly GenAI's default one).

    ``draft_folder``: the draft model's OpenVINO folder (a GGUF draft converted, see
    :mod:`pipelines.draft_model`); default ``options.draft_model`` itself. The draft runs on
    ``device``, the main model's.
    """
    if options.is_default:
        return {}
    import openvino_genai as ov_genai

    properties: dict[str, Any] = {"scheduler_config": scheduler_config(options)}
    if options.kv_cache_precision != "default":
        properties["KV_CACHE_PRECISION"] = options.kv_cache_precision
    if options.prompt_lookup:
        properties["prompt_lookup"] = True
    if options.draft_model is not None:
        folder = draft_folder if draft_folder is not None else options.draft_model
        properties["draft_model"] = ov_genai.draft_model(str(folder), device)
    if options.weight_sparsity:
        properties["CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE"] = WEIGHT_SPARSITY_RATE
    if options.parallelism != "off":
        # With "gpus" the pipeline also runs on parallel_device(...), the HETERO device.
        properties["MODEL_DISTRIBUTION_POLICY"] = DISTRIBUTION_POLICY[options.parallelism]
    return properties


def apply_to_generation(options: EngineOptions, config: Any) -> Any:
    """Complete ``config`` (a ``GenerationConfig``) for the assisted decoding ``options`` load
    with: a prompt-lookup or speculative pipeline refuses a config without these."""
    if options.prompt_lookup:
        config.num_assistant_tokens = ASSISTANT_TOKENS
        config.max_ngram_size = MAX_NGRAM_SIZE
    elif options.draft_model is not None:
        config.num_assistant_tokens = ASSISTANT_TOKENS
    return config


def describe(options: EngineOptions) -> Mapping[str, str]:
    """The options that differ from the defaults, as ``name: value`` text (for logs, metrics
    and the closing line of the CLI)."""
    return {name: str(getattr(options, name)) for name in _FIELD_ORDER if _differs(options, name)}


@functools.cache
def cpu_has_amx() -> bool:
    """Whether this machine's CPU has AMX tile units (Sapphire Rapids and later Xeons).

    Read from ``/proc/cpuinfo`` on Linux; elsewhere OpenVINO does not say, so False (weight
    sparsity is then refused with its reason rather than silently slowing answers).
    """
    if platform.system() != "Linux":
        return False
    try:
        with Path("/proc/cpuinfo").open(encoding="ascii", errors="replace") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return "amx_tile" in line.split()
    except OSError:
        return False
    return False
