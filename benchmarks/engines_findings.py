"""For each missed goal of benchmarks/bench_engines.py: why, and what would close it, in
sentences built from the run's own numbers (so a re-run on another machine says its own).

The reasoning behind each sentence, found on the 2-core AMX Xeon this project is measured on:

* decode: OpenVINO spends ~98% of a token in the model's inference (GenAI's scheduler,
  sampling and detokenization are the rest), so the gap is in the CPU plugin's kernels for the
  weight layout, which the knobs and the exports vary;
* cached load: a ``CACHE_DIR`` blob does not shorten the PagedAttention load, while the SDPA
  backend loads from one fast but prefills far slower;
* memory: the first answer makes the CPU plugin read every weight and keep its own copy in its
  layout, while the weights read from the IR (memory-mapped or not) stay resident too;
  llama.cpp computes on the memory-mapped file itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmarks.engines_report import CACHED, LLAMA, MAIN, difference, median, ratio


def _fmt(value: float | None, pattern: str = "{:.2f}") -> str:
    return "n/a" if value is None else pattern.format(value)


@dataclass(frozen=True)
class _Run:
    """The run's medians, as numbers and as text for the sentences."""

    summary: dict[str, Any]

    def number(self, variant: str, figure: str) -> float | None:
        return median(self.summary, variant, figure)

    def value(self, variant: str, figure: str, pattern: str = "{:.2f}") -> str:
        return _fmt(self.number(variant, figure), pattern)

    def mb(self, variant: str, figure: str) -> str:
        return self.value(variant, figure, "{:.0f}")

    def vs_llama(self, variant: str, figure: str) -> str:
        return _fmt(ratio(self.summary, variant, LLAMA, figure), "{:.2f}x")

    def own(self, variant: str, stage: str) -> float | None:
        """Resident memory that maps no file, after the load or the decode run."""
        rss = self.number(variant, f"{'peak_' if stage == 'load' else ''}rss_after_{stage}_mb")
        return difference(rss, self.number(variant, f"file_backed_after_{stage}_mb"))


def findings(summary: dict[str, Any], goals: dict[str, Any]) -> dict[str, str]:
    """One paragraph per goal: for a missed one why, and what would close it."""
    run = _Run(summary)
    return {
        "decode": _decode(run, goals["decode"]),
        "ttft_1024": _ttft(run, goals["ttft_1024"]),
        "cached_load": _cached_load(run, goals["cached_load"]),
        "peak_rss": _memory(run, goals["peak_rss"]),
    }


def _decode(run: _Run, goal: dict[str, Any]) -> str:
    rate = "decode_tokens_per_s"
    if goal["met"]:
        return f"met: {run.vs_llama(MAIN, rate)} llama.cpp"
    infer, tpot = run.number(MAIN, "decode_infer_ms_per_token"), run.number(MAIN, "decode_tpot_ms")
    exports = sorted(
        (v for v in run.summary if v.startswith("ir ")), key=lambda v: -(run.number(v, rate) or 0)
    )
    layouts = ", ".join(f"{v.removeprefix('ir ')} {run.vs_llama(v, rate)}" for v in exports)
    closing = goal.get("variants_meeting_it") or []
    return (
        f"OpenVINO decodes at {run.vs_llama(MAIN, rate)} llama.cpp's rate from the GGUF (Q4_1: "
        f"asymmetric int4, groups of 32). "
        f"{_fmt(infer / tpot if infer and tpot else None, '{:.0%}')} of its {_fmt(tpot)} ms per "
        f"token is the model's inference, so neither the app nor GenAI's pipeline is the gap: "
        f"the CPU plugin's kernels for this weight layout are. Knobs do not close it: bf16 "
        f"{run.vs_llama('openvino bf16', rate)}, without dynamic quantization of activations "
        f"{run.vs_llama('openvino no dynamic quantization', rate)}, SDPA "
        f"{run.vs_llama('openvino sdpa', rate)}, KV cache f16 "
        f"{run.vs_llama('openvino kv f16', rate)}. The layout does: the same weights exported "
        f"as IR decode at {layouts or 'n/a (no exports)'}. "
        + (
            f"{', '.join(closing)} meets the goal, so re-quantizing a GGUF's weights to that "
            "layout (a second quantization: check quality) or giving the CPU plugin group-32 "
            "int4 kernels as fast as its channel-wise ones would close it."
            if closing
            else "None meets it: faster int4 kernels in the CPU plugin would be needed."
        )
    )


def _ttft(run: _Run, goal: dict[str, Any]) -> str:
    first = "ttft_s@1024"
    return (
        f"{'met' if goal['met'] else 'missed'}: {run.vs_llama(MAIN, first)} llama.cpp at 1024 "
        f"tokens ({run.vs_llama(MAIN, 'ttft_s@128')} at 128, "
        f"{run.vs_llama(MAIN, 'ttft_s@4096')} at 4096); bf16 would prefill faster still "
        f"({run.vs_llama('openvino bf16', first)}) but decodes at "
        f"{run.vs_llama('openvino bf16', 'decode_tokens_per_s')}."
    )


def _cached_load(run: _Run, goal: dict[str, Any]) -> str:
    if goal["met"]:
        return f"met: {run.value(CACHED, 'load_s')} s"
    sdpa = "openvino sdpa cache_dir"
    slower = ratio(run.summary, sdpa, CACHED, "ttft_s@1024")
    return (
        f"The converted IR loads in {run.value(CACHED, 'load_s')} s (llama.cpp maps its file "
        f"in {run.value(LLAMA, 'load_s')} s). A compiled-model cache (CACHE_DIR) does not "
        f"shorten the PagedAttention load ({run.value('openvino cache_dir', 'load_s')} s); "
        f"with the SDPA backend it loads in {run.value(sdpa, 'load_s')} s, but SDPA prefills "
        f"{_fmt(slower, '{:.1f}x')} slower ({run.vs_llama(sdpa, 'ttft_s@1024')} llama.cpp at "
        f"1024 tokens), which would give up the prompt lead. A compiled-model cache that holds "
        f"the PagedAttention model would close it; smaller IR loads faster too (int4 "
        f"channel-wise: {run.value('ir int4-sym-channel', 'load_s')} s)."
    )


def _memory(run: _Run, goal: dict[str, Any]) -> str:
    after = "peak_rss_after_decode_mb"
    if goal["met"]:
        return f"met: {run.vs_llama(MAIN, after)} llama.cpp"
    files = difference(
        run.number(CACHED, "file_backed_after_decode_mb"),
        run.number(CACHED, "file_backed_after_load_mb"),
    )
    own = difference(run.own(CACHED, "decode"), run.own(CACHED, "load"))
    return (
        f"After a 128-token answer OpenVINO holds {run.mb(MAIN, after)} MB "
        f"({run.vs_llama(MAIN, after)} llama.cpp's {run.mb(LLAMA, after)} MB). Its libraries "
        f"take {run.mb(MAIN, 'rss_after_import_mb')} MB against "
        f"{run.mb(LLAMA, 'rss_after_import_mb')} MB. From the cached IR the load leaves "
        f"{run.mb(CACHED, 'peak_rss_after_load_mb')} MB; the first answer then adds "
        f"{_fmt(files, '{:.0f}')} MB of file-backed pages (the whole weights file read) and "
        f"{_fmt(own, '{:.0f}')} MB of OpenVINO's own memory (by its size, the CPU plugin's "
        f"copy of the weights in its own layout, and buffers): the weights are resident "
        f"twice. Reading instead of mapping the file changes nothing "
        f"({run.mb('openvino no mmap', after)} MB). llama.cpp computes on its memory-mapped "
        f"file ({run.mb(LLAMA, 'file_backed_after_decode_mb')} MB file-backed, "
        f"{_fmt(run.own(LLAMA, 'decode'), '{:.0f}')} MB own). The CPU plugin releasing the "
        f"source weights once it holds its own copy would close most of the gap; the smallest "
        f"IR comes closest (int4 channel-wise: {run.vs_llama('ir int4-sym-channel', after)})."
    )
