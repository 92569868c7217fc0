"""A generation's figures by stage, from OpenVINO GenAI's ``ImageGenerationPerfMetrics``.

The overlay shows where a picture's time went: the text encoder (once per picture), the
denoiser (per step; the first step apart, it carries the first inference's set-up), the VAE
(decode, and encode for an edit) and the previews' decodes. GenAI reports milliseconds, the
denoiser as a UNet's or a transformer's figures (whichever the model has).
"""

from __future__ import annotations

from typing import Any

from pipelines.images.preview import PreviewThrottle


def stage_figures(perf: Any, elapsed_ms: float, throttle: PreviewThrottle) -> dict[str, float]:
    """The named figures (ms, counts) of one ``generate`` call."""
    unet = perf.raw_metrics.unet_inference_durations
    if len(unet):
        first, other = perf.get_first_and_other_unet_infer_duration()
        steps = len(unet)
    else:
        first, other = perf.get_first_and_other_trans_infer_duration()
        steps = len(perf.raw_metrics.transformer_inference_durations)
    encoders = perf.get_text_encoder_infer_duration()
    return {
        "generate_ms": float(elapsed_ms),
        "text_encoder_ms": float(sum(encoders.values())) if encoders else 0.0,
        "denoise_first_ms": float(first),
        "denoise_step_ms": float(other if steps > 1 else first),
        "steps": float(steps),
        "vae_decode_ms": float(perf.get_vae_decoder_infer_duration()),
        "vae_encode_ms": float(perf.get_vae_encoder_infer_duration()),
        "preview_ms": throttle.spent_s * 1000.0,  # decoded previews (approximate: ~free)
        "previews": float(throttle.count),
    }
