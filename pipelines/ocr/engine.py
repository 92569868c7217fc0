"""rapidocr's pipeline on its own OpenVINO inference engine, with the weights its wheel ships.

Every choice rapidocr's configuration needs is made here, in one place:

- the engine is OpenVINO for all three models (rapidocr's default is onnxruntime, which the
  product never loads: nothing on this path imports it, see the tests);
- each model's path is the ONNX file inside the wheel (PP-OCRv6 detection and recognition,
  small; the text-direction classifier is named but never loaded: it turned upright lines
  upside down, and pages are turned upright as a whole instead), so rapidocr never reaches for
  its downloader — or, in a folder of compact models (:func:`save_compact_models`: the same
  networks as OpenVINO IR with half-size FP16 weights, what the frozen app carries), their
  ``.xml`` files;
- detection sees a page at most :data:`DETECTION_SIDE` pixels on its long side (rapidocr's
  default scales a page *up* to 736 on its short side and keeps every pixel of a 200 dpi
  scan, which tripled the detection time for no better text);
- rapidocr's session compiles on the CPU only; for another device its read model is compiled
  again there (:func:`_compile_on`), so the device layer's choice holds.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

from pipelines.core import DeviceError, ModelLoadError

MODEL_NAMES = {
    "Det": "PP-OCRv6_det_small",
    "Rec": "PP-OCRv6_rec_small",
    "Cls": "ch_ppocr_mobile_v2.0_cls_mobile",
}
"""The models by stage: rapidocr 3.10's wheel carries them as ``<name>.onnx`` under
``rapidocr/models``; a compact folder holds ``<name>.xml`` and ``<name>.bin``."""

DETECTION_SIDE = 1600
"""Longest side of the picture the detector sees (a 150 dpi A4 page is 1754 pixels high)."""

MIN_TEXT_CONFIDENCE = 0.5
"""Recognised lines scoring less are dropped (rapidocr's own default)."""

log = logging.getLogger(__name__)


def model_folder() -> Path:
    """``rapidocr/models`` where the package is installed (or frozen), without importing it."""
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        raise ModelLoadError("The OCR package (rapidocr) is not installed.")
    return Path(next(iter(spec.submodule_search_locations))) / "models"


def model_paths(folder: Path | None = None) -> dict[str, Path]:
    """Each stage's model file in ``folder`` (None: the wheel's): its ``.xml`` when there is
    one, else its ``.onnx``.

    Raises:
        ModelLoadError: a stage has neither.
    """
    folder = model_folder() if folder is None else folder
    paths: dict[str, Path] = {}
    missing: list[str] = []
    for stage, name in MODEL_NAMES.items():
        found = [folder / f"{name}{suffix}" for suffix in (".xml", ".onnx")]
        present = [path for path in found if path.is_file()]
        if present:
            paths[stage] = present[0]
        else:
            missing.append(f"{name}.onnx")
    if missing:
        raise ModelLoadError(
            f"The OCR models are missing from {folder} ({', '.join(missing)}): reinstall the app."
        )
    return paths


def save_compact_models(target: Path, source: Path | None = None) -> list[Path]:
    """Write every stage's model from ``source`` (None: the wheel's ONNX files) into ``target``
    as OpenVINO IR with FP16 weights: half the size, the same text (the CPU computes in FP32
    or BF16 either way; the recogniser's character list travels in the IR's ``rt_info``).

    Each model is written beside its final name and renamed, so ``target`` never holds half a
    model. Returns the ``.xml`` files.

    Raises:
        ModelLoadError: a source model is missing or unreadable.
    """
    import openvino as ov

    sources = model_paths(source)
    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    core = ov.Core()
    for stage, path in sources.items():
        name = MODEL_NAMES[stage]
        try:
            model = core.read_model(path)
        except RuntimeError as error:
            raise ModelLoadError(f"The OCR model {path.name} could not be read: {error}") from error
        partial = target / f".{name}.partial.xml"
        ov.save_model(model, partial, compress_to_fp16=True)
        partial.with_suffix(".bin").replace(target / f"{name}.bin")
        partial.replace(target / f"{name}.xml")
        written.append(target / f"{name}.xml")
    return written


def build_engine(device: str, cache_dir: Path | None, folder: Path | None = None) -> Any:
    """A loaded ``rapidocr.RapidOCR`` whose detector and recogniser run on ``device``, with
    the models in ``folder`` (None: the wheel's ONNX files).

    Raises:
        ModelLoadError: the model files are missing or unreadable.
        DeviceError: a model does not compile on ``device``.
    """
    from rapidocr import EngineType, RapidOCR

    paths = model_paths(folder)
    params: dict[str, Any] = {"Global.log_level": "warning"}
    params["Global.text_score"] = MIN_TEXT_CONFIDENCE
    for stage, path in paths.items():  # all three named: rapidocr's configuration wants them
        params[f"{stage}.engine_type"] = EngineType.OPENVINO
        params[f"{stage}.model_path"] = str(path)
    params["Det.limit_type"] = "max"
    params["Det.limit_side_len"] = DETECTION_SIDE
    try:
        engine: Any = RapidOCR(params=params)
        # rapidocr loads each model at its first use; an ingest wants them loaded (and any
        # failure said) before the first page, and the recogniser only runs once text is found.
        # The direction classifier is not loaded: it misjudged lines (pipelines/ocr/orientation).
        loaders = (engine._load_det_model, engine._load_rec_model)
        stages = [load() for load in loaders]
    except (OSError, RuntimeError, ValueError) as error:
        raise ModelLoadError(f"The OCR models could not be loaded: {error}") from error
    if device.split(".", 1)[0].upper() != "CPU":
        for stage in stages:
            _compile_on(stage.session, device, cache_dir)
    return engine


def _compile_on(session: Any, device: str, cache_dir: Path | None) -> None:
    """Point one rapidocr OpenVINO session at a request compiled for ``device``."""
    import openvino as ov

    properties: dict[str, str] = {}
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        properties["CACHE_DIR"] = str(cache_dir)
    try:
        compiled = ov.Core().compile_model(session.model, device, properties)
    except RuntimeError as error:
        raise DeviceError(
            f"The OCR models could not be compiled for {device}: {error}", device=device
        ) from error
    session.session = compiled.create_infer_request()
