"""One single-input, single-output picture network (an upscaler, a preview decoder) read,
checked for its kind and compiled for one picture at a time.

Both run one request per call from the panel's picture job, so they compile for latency; each
kind says what its input and output shapes must be before anything is compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipelines.contract import compile_properties, load_with, shared_core

ShapeCheck = Callable[[Any, Any, Any], None]
"""Raises ``ModelLoadError`` unless ``(network, input shape, output shape)`` is of the kind."""


def compile_picture_network(
    xml: Path,
    *,
    what: str,
    device: str,
    cache_dir: Path | None,
    properties: dict[str, Any],
    check: ShapeCheck,
) -> Any:
    """``xml`` read (on the CPU: reading needs no device), ``check``\\ ed, compiled on
    ``device`` with the latency hint plus ``properties`` (which win).

    Raises:
        ModelLoadError: the IR is missing or damaged, or ``check`` refused it.
        DeviceError: ``device`` could not compile it.
    """
    core = shared_core()
    network = load_with(lambda: core.read_model(str(xml)), what=what, device="CPU")
    check(network, network.inputs[0].get_partial_shape(), network.outputs[0].get_partial_shape())
    compiled_with = compile_properties(cache_dir, {"PERFORMANCE_HINT": "LATENCY", **properties})
    return load_with(
        lambda: core.compile_model(network, device, compiled_with), what=what, device=device
    )
