"""What the compiled-model cache can hold, checked against the installed OpenVINO: the CPU
plugin cannot load a paged-attention model back from its blob (so chat models on the CPU are
compiled without ``CACHE_DIR``: :func:`pipelines.contract.paged_attention_cache_dir`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration]


def test_the_cpu_plugin_cannot_load_a_paged_attention_model_from_its_blob(
    chat_model_dir: Path,
) -> None:
    import openvino as ov
    from openvino._offline_transformations import paged_attention_transformation

    core = ov.Core()
    model = core.read_model(chat_model_dir / "openvino_model.xml")
    paged_attention_transformation(model, True, True)  # as GenAI's LLMPipeline does
    blob = core.compile_model(model, "CPU").export_model()
    # When this stops failing, OpenVINO can load the blob: let paged_attention_cache_dir
    # give the CPU its cache again (and delete this test).
    with pytest.raises(RuntimeError, match="k_head_size"):
        core.import_model(io.BytesIO(blob.getvalue()), "CPU")
