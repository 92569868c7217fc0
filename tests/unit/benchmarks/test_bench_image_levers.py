"""The image levers' summary: a ratio above 1 means faster than the baseline, and a burst of a
neighbour's load in one round does not decide it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bench_image_levers import Timings, ir_path, stage_inputs, summary


def test_a_variant_twice_as_fast_reads_two_by_every_measure() -> None:
    timings = {
        "int8": Timings(wall=[2.0, 2.2, 9.0], cpu=[4.0, 4.4, 4.2]),
        "fp16": Timings(wall=[1.0, 1.1, 4.5], cpu=[2.0, 2.2, 2.1]),
        "torch-bf16": Timings(wall=[1.0, 1.1, 4.5], cpu=[4.0, 4.4, 4.2]),
    }

    rows = summary(timings, "int8")

    assert rows["fp16"]["vs_int8"] == {
        "median_of_round_ratios": 2.0,
        "fastest_ratio": 2.0,
        "cpu_ratio": 2.0,
    }
    assert rows["int8"]["vs_torch-bf16"]["fastest_ratio"] == 0.5
    assert "vs_int8" not in rows["int8"]  # no variant against itself
    assert rows["int8"]["fastest_s"] == 2.0
    assert rows["int8"]["median_s"] == 2.2


def test_a_slow_round_on_one_side_only_does_not_move_the_median_ratio() -> None:
    timings = {
        "int8": Timings(wall=[2.0, 2.0, 2.0], cpu=[4.0] * 3),
        "fp16": Timings(wall=[2.0, 20.0, 2.0], cpu=[4.0] * 3),
    }

    assert summary(timings, "int8")["fp16"]["vs_int8"]["median_of_round_ratios"] == 1.0


def test_variants_live_in_the_fixture_cache_and_int8_is_the_benchmark_model(
    tmp_path: Path,
) -> None:
    bench = tmp_path / "bench"
    cache = tmp_path / "mine"

    int8 = ir_path(cache, bench, "int8", "unet")
    fp16 = ir_path(cache, bench, "fp16", "text_encoder")

    assert int8 == bench / "bench-sd15-lcm" / "openvino" / "unet" / "openvino_model.xml"
    assert fp16 == cache / "sd15-lcm-variants" / "fp16" / "text_encoder" / "openvino_model.xml"


def test_the_unet_is_fed_a_512_square_picture_s_latent() -> None:
    feeds = stage_inputs("unet")

    assert feeds["sample"].shape == (1, 4, 64, 64)
    assert feeds["encoder_hidden_states"].shape == (1, 77, 768)
    assert feeds["timestep_cond"].shape == (1, 256)
