"""A converted GGUF's weight layout, decided on the real SmolLM2-135M-Instruct (Q4_1): the
file's weights read exactly (OpenVINO's own reading rounds them), the quality check's verdicts
on real weights, the re-laid-out model loaded by later opens, and what cancelling, a full disk,
a changed file, a damaged record and a second process leave behind."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import openvino as ov
import pytest

import pipelines.gguf_relayout as relayout_module
from app.chat import choose_faster_layout
from app.core.errors import UserError
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings, Message
from pipelines.gguf_relayout import (
    AS_READ,
    EXACT,
    LAYOUT_FILE,
    LOCK_FILE,
    RELAID_FOLDER,
    RelayoutBusyError,
    choose_layout,
    decided_layout,
)
from pipelines.layout_quality import QualityCheck
from pipelines.native_weights import UNSUPPORTED_REASON, releases_supported
from pipelines.weight_layout import Quantisation, WeightLayout
from tests.mapped_memory import resident_bytes

pytestmark = pytest.mark.integration

CHANNEL_BODY = WeightLayout(body=Quantisation(4), head=Quantisation(8))
HEAD_ONLY = WeightLayout(body=None, head=Quantisation(8))
CAPITAL = [Message("user", "What is the capital of France?")]
GREEDY = GenerationSettings(max_new_tokens=16, temperature=0.0)
AS_THE_APP = {"INFERENCE_PRECISION_HINT": "f32"}
"""The app's chat precision on the CPU (app.core.devices.tuning_properties): in bf16, the
default on CPUs that have it, this tiny model's greedy answer to the capital question turns
from Paris to a list of Paris landmarks once its weights are read exactly."""


@pytest.fixture(scope="module")
def converted_once(real_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real GGUF converted once (the cache folder GenAI's reader fills)."""
    cache = tmp_path_factory.mktemp("relayout-cache")
    ChatPipeline(ChatModelConfig(real_gguf, converted_dir=cache)).load()
    [entry] = [folder for folder in cache.iterdir() if not folder.name.startswith(".")]
    return entry


@pytest.fixture
def cache(real_gguf: Path, converted_once: Path, tmp_path: Path) -> Path:
    """A private copy of the converted cache (tests write decisions into it)."""
    copy = tmp_path / "gguf"
    shutil.copytree(converted_once.parent, copy)
    return copy


def _entry(cache: Path) -> Path:
    [entry] = [folder for folder in cache.iterdir() if not folder.name.startswith(".")]
    return entry


def _passing(*_args: object) -> QualityCheck:
    return QualityCheck(10.0, 10.0, 1.0, 1.0, 2048)


def _tune_to_the_head_layout(gguf: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Decide the 8-bit-head layout for ``cache``'s entry, its check passed without reading
    (a short text, any verdict): the tests after it are about what a decision leads to."""
    monkeypatch.setattr(relayout_module, "CANDIDATES", (HEAD_ONLY,))
    monkeypatch.setattr(relayout_module, "compare", _passing)
    monkeypatch.setattr("pipelines.layout_quality.TEXT_TOKENS", 128)
    choose_layout(_entry(cache), gguf, CancelToken(), lambda _p: None)


def test_on_real_weights_a_second_4bit_rounding_fails_and_the_8bit_head_passes(
    real_gguf: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(relayout_module, "CANDIDATES", (CHANNEL_BODY, HEAD_ONLY))
    shares: list[float] = []
    decision = choose_layout(
        _entry(cache), real_gguf, CancelToken(), lambda p: shares.append(p.fraction or 0)
    )
    as_read, channel, head = decision.checks
    # Measured on this model (pipelines/gguf_exact.py, pipelines/layout_quality.py): the
    # exact reading's perplexity is llama.cpp's (6.31 against 6.34); OpenVINO's own reading
    # +20%; channel-wise int4 +94%; the 8-bit output layer per channel +0.4%.
    assert 5 < as_read["reference_perplexity"] < 7
    assert as_read["layout"] == AS_READ and as_read["perplexity_rise"] > 0.1
    assert channel["perplexity_rise"] > 0.5 and channel["clear_agreement"] < 0.9
    assert not channel["passed"]
    assert head["passed"] and head["perplexity_rise"] < 0.02 and head["clear_agreement"] >= 0.99
    assert decision.layout == HEAD_ONLY.name and decision.relaid
    assert shares == sorted(shares) and shares[-1] == 1.0
    assert decided_layout(_entry(cache)) == decision
    assert not (_entry(cache) / LOCK_FILE).exists()
    with ChatPipeline(
        ChatModelConfig(real_gguf, converted_dir=cache, properties=AS_THE_APP)
    ) as later:
        later.load()
        assert later.from_cache and later.layout == decision
        answer = later.generate(CAPITAL, GREEDY, CancelToken(), lambda _t: None).text
    assert "Paris" in answer


def test_when_no_faster_layout_passes_the_file_is_read_exactly_and_said(
    real_gguf: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(relayout_module, "CANDIDATES", (CHANNEL_BODY,))
    # Channel-wise int4 fails by far (perplexity about twice) on any length of text.
    monkeypatch.setattr("pipelines.layout_quality.TEXT_TOKENS", 256)
    decision = choose_layout(_entry(cache), real_gguf, CancelToken(), lambda _p: None)
    assert decision.layout == EXACT and (_entry(cache) / RELAID_FOLDER).is_dir()
    from app.chat import layout_sentence

    sentence = layout_sentence(decision)
    assert sentence.startswith("Runs in the file's own weight layout, read exactly")
    with ChatPipeline(
        ChatModelConfig(real_gguf, converted_dir=cache, properties=AS_THE_APP)
    ) as later:
        later.load()
        assert later.layout == decision  # decided once: the next load does not try again
        assert "Paris" in later.generate(CAPITAL, GREEDY, CancelToken(), lambda _t: None).text


def test_the_exact_reading_gives_each_weight_the_files_own_values(
    real_gguf: Path, converted_once: Path
) -> None:
    from gguf import GGUFReader
    from gguf.quants import dequantize

    from pipelines.gguf_exact import restore_minimums
    from pipelines.weight_layout import _compressed_weights, _evaluate  # the reader's inverse

    tensor = next(t for t in GGUFReader(real_gguf).tensors if t.name == "blk.3.ffn_down.weight")
    truth = dequantize(tensor.data, tensor.tensor_type).reshape(576, 1536)
    model = ov.Core().read_model(str(converted_once / "openvino_model.xml"))

    def closest() -> float:
        shaped = [
            w for w in _compressed_weights(model) if tuple(w.output.get_shape()) == truth.shape
        ]
        return min(float(np.abs(_evaluate(w.output) - truth).max()) for w in shaped)

    assert closest() > 0.02  # OpenVINO's reading: each group's minimum rounded to a step
    assert restore_minimums(model, real_gguf, CancelToken()) == 210  # every Q4_1 matrix
    assert closest() < 1e-3  # float16 rounding of the zero point only


def test_a_file_changed_since_its_conversion_is_not_tuned(real_gguf: Path, tmp_path: Path) -> None:
    copy = tmp_path / real_gguf.name
    shutil.copyfile(real_gguf, copy)
    cache = tmp_path / "gguf"
    ChatPipeline(ChatModelConfig(copy, converted_dir=cache)).load()
    os.utime(copy, ns=(1, 1))
    with pytest.raises(InvalidInputError, match="changed since it was converted"):
        choose_layout(_entry(cache), copy, CancelToken(), lambda _p: None)
    assert not (_entry(cache) / LAYOUT_FILE).exists()


def test_cancelling_keeps_nothing_and_the_next_load_tries_again(
    real_gguf: Path, cache: Path
) -> None:
    cancel = CancelToken()

    def cancel_on_first_progress(_progress: object) -> None:
        cancel.cancel()

    with pytest.raises(Cancelled):
        choose_layout(_entry(cache), real_gguf, cancel, cancel_on_first_progress)
    names = {path.name for path in _entry(cache).iterdir()}
    assert not names & {LAYOUT_FILE, RELAID_FOLDER, LOCK_FILE}
    assert not any(name.startswith(".") for name in names)


def test_a_full_disk_is_one_sentence_and_leaves_nothing_half_made(
    real_gguf: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(relayout_module, "CANDIDATES", (HEAD_ONLY,))
    monkeypatch.setattr("pipelines.layout_quality.TEXT_TOKENS", 128)
    monkeypatch.setattr(relayout_module, "compare", _passing)

    def full_disk(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ov, "save_model", full_disk)
    with pytest.raises(UserError, match=r"could not be saved \(No space left on device\)"):
        choose_faster_layout(_entry(cache), real_gguf, CancelToken(), lambda _p: None)
    names = {path.name for path in _entry(cache).iterdir()}
    assert not names & {LAYOUT_FILE, RELAID_FOLDER, LOCK_FILE}
    assert not any(name.startswith(".") for name in names)


@pytest.mark.parametrize(
    "record",
    ["{not json", '{"layout": 3, "checks": []}', '{"layout": "", "checks": [1]}', "[]", ""],
)
def test_a_damaged_decision_is_made_again(cache: Path, record: str) -> None:
    (_entry(cache) / LAYOUT_FILE).write_text(record, encoding="utf-8")
    assert decided_layout(_entry(cache)) is None


def test_a_decision_whose_model_is_gone_is_forgotten_and_the_files_layout_loads(
    real_gguf: Path, cache: Path
) -> None:
    record = {"layout": HEAD_ONLY.name, "checks": [{"layout": HEAD_ONLY.name}]}
    (_entry(cache) / LAYOUT_FILE).write_text(json.dumps(record), encoding="utf-8")
    (_entry(cache) / RELAID_FOLDER).mkdir()  # the model's files are missing
    with ChatPipeline(ChatModelConfig(real_gguf, converted_dir=cache)) as pipe:
        pipe.load()
        assert pipe.from_cache and pipe.layout is None
    assert not (_entry(cache) / LAYOUT_FILE).exists()


def test_a_relaid_model_that_does_not_load_falls_back_to_the_files_layout(
    real_gguf: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tune_to_the_head_layout(real_gguf, cache, monkeypatch)
    (_entry(cache) / RELAID_FOLDER / "openvino_model.xml").write_text("<net", encoding="utf-8")
    with ChatPipeline(ChatModelConfig(real_gguf, converted_dir=cache)) as pipe:
        pipe.load()
        assert (
            pipe.layout is None
            and "Paris" in pipe.generate(CAPITAL, GREEDY, CancelToken(), lambda _t: None).text
        )
    assert not (_entry(cache) / RELAID_FOLDER).exists()


def test_a_second_process_waits_its_turn_and_a_dead_ones_lock_is_taken_over(
    real_gguf: Path, cache: Path
) -> None:
    lock = _entry(cache) / LOCK_FILE
    alive = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        lock.write_text(str(alive.pid), encoding="utf-8")
        with pytest.raises(RelayoutBusyError, match="Another OV Studio window"):
            choose_layout(_entry(cache), real_gguf, CancelToken(), lambda _p: None)
        assert lock.read_text(encoding="utf-8") == str(alive.pid)  # not ours to remove
    finally:
        alive.communicate(b"")
    lock.write_text(str(alive.pid), encoding="utf-8")  # its process has ended
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):  # it got past the lock
        choose_layout(_entry(cache), real_gguf, cancel, lambda _p: None)
    assert not lock.exists()


def test_an_exact_reading_that_reads_worse_than_openvinos_is_not_trusted(
    real_gguf: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipelines import gguf_exact

    restore = gguf_exact.restore_minimums

    def misread(model: ov.Model, gguf: Path, cancel: CancelToken) -> int:
        changed = restore(model, gguf, cancel)
        for node in model.get_ops():  # every restored zero point three steps off
            if node.get_type_name() == "Subtract":
                zero = node.input(1).get_source_output().get_node()
                if zero.get_type_name() == "Constant" and zero.get_element_type() == ov.Type.f16:
                    shifted = np.asarray(zero.get_data()) + np.float16(3)
                    node.input(1).replace_source_output(ov.opset13.constant(shifted).output(0))
        return changed

    monkeypatch.setattr(relayout_module, "restore_minimums", misread)
    monkeypatch.setattr(relayout_module, "CANDIDATES", ())
    monkeypatch.setattr("pipelines.layout_quality.TEXT_TOKENS", 256)
    decision = choose_layout(_entry(cache), real_gguf, CancelToken(), lambda _p: None)
    [as_read] = decision.checks
    assert as_read["layout"] == AS_READ and as_read["perplexity_rise"] < -0.5
    assert decision.layout == "" and not (_entry(cache) / RELAID_FOLDER).exists()


def test_a_file_changed_while_it_was_read_keeps_nothing(
    real_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / real_gguf.name
    shutil.copyfile(real_gguf, copy)
    cache = tmp_path / "gguf"
    ChatPipeline(ChatModelConfig(copy, converted_dir=cache)).load()
    monkeypatch.setattr(relayout_module, "CANDIDATES", ())
    monkeypatch.setattr("pipelines.layout_quality.TEXT_TOKENS", 128)
    restore = relayout_module.restore_minimums

    def restore_then_edit(model: ov.Model, gguf: Path, cancel: CancelToken) -> int:
        changed = restore(model, gguf, cancel)
        os.utime(gguf, ns=(1, 1))  # another program rewrites the file meanwhile
        return changed

    monkeypatch.setattr(relayout_module, "restore_minimums", restore_then_edit)
    with pytest.raises(InvalidInputError, match="changed since it was converted"):
        choose_layout(_entry(cache), copy, CancelToken(), lambda _p: None)
    names = {path.name for path in _entry(cache).iterdir()}
    assert not names & {LAYOUT_FILE, RELAID_FOLDER, LOCK_FILE}


@pytest.mark.skipif(not releases_supported(), reason=UNSUPPORTED_REASON)
def test_a_tuned_model_lets_its_own_file_pages_go_after_the_first_answer(
    real_gguf: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tune_to_the_head_layout(real_gguf, cache, monkeypatch)
    weights = _entry(cache) / RELAID_FOLDER / "openvino_model.bin"
    with ChatPipeline(
        ChatModelConfig(real_gguf, converted_dir=cache, properties=AS_THE_APP)
    ) as tuned:
        tuned.load()
        tuned.generate(CAPITAL, GREEDY, CancelToken(), lambda _t: None)
        assert resident_bytes(weights) < weights.stat().st_size // 2
