"""What Help → About (and ``--version``) says: this copy's version and its runtime's.

Versions come from the installed packages' metadata, so nothing heavy is imported to show
them; a frozen build without that metadata falls back to the module's own ``__version__``.
"""

from __future__ import annotations

import importlib
import platform
from importlib.metadata import PackageNotFoundError, version

APP_DISTRIBUTION = "ov-studio"


def app_version() -> str:
    """This copy's version (``dev`` when run from a checkout that was never installed)."""
    try:
        return version(APP_DISTRIBUTION)
    except PackageNotFoundError:
        return "dev"


def package_version(distribution: str, module: str) -> str:
    """``distribution``'s version, else ``module.__version__``, else "not installed"."""
    try:
        return version(distribution)
    except PackageNotFoundError:
        pass
    try:
        found = importlib.import_module(module)
    except ImportError:
        return "not installed"
    return str(getattr(found, "__version__", "unknown"))


def runtime_versions() -> list[tuple[str, str]]:
    """(name, version) of what the app runs on, in the order About shows them."""
    return [
        ("OpenVINO", package_version("openvino", "openvino")),
        ("OpenVINO GenAI", package_version("openvino-genai", "openvino_genai")),
        ("Python", platform.python_version()),
    ]
