"""Where the conversion toolchain (torch, transformers, optimum-intel, NNCF) live, if anywhere.

The app itself never imports them: conversions run as ``python -m app.models.…`` in another
process. That Python is, in order:

1. a source checkout's own interpreter, when its virtualenv has the tools (``make run``
   installs the ``convert`` extra) — checked with ``importlib.util.find_spec``, which finds a
   module without importing it (importing torch here would cost seconds and hundreds of MB);
2. the private environment under the app's data folder (``<data>/tools/env``) that
   :mod:`app.models.toolchain_install` builds on demand — only once it is complete, which its marker
   file says (the installer writes the marker, then renames the folder into place);
3. none: the tools are missing and the user is offered to install them.

A frozen app (PyInstaller) has no interpreter of its own to lend, so only (2) counts.

This module imports nothing beyond the standard library and small modules of the app
(:mod:`app.core.runtime`, the requirement list), so a test can ask any interpreter (a venv without
the tools, say) what it decides.

A private environment installed with another requirement list than this version of the app
asks for (an update changed a pin) is *outdated*: it still runs conversions, and the Convert
view and ``models tools`` offer to update it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import UserError
from app.core.runtime import is_frozen, source_root
from app.core.texts import tr
from app.models.toolchain_requirements import tool_requirements

TOOLS_FOLDER = "tools"
"""The tools folder's name in the app's data folder (``AppPaths.toolchain_dir``)."""
TOOL_MODULES = ("torch", "transformers", "optimum.intel", "nncf", "skimage")
"""What a conversion job imports from the ``convert`` extra (module names, not distributions)."""
ENV_FOLDER = "env"
"""The complete private environment, under the tools folder."""
MARKER = "ov-studio-tools.json"
"""Written last into a finished environment: its requirements and when it was made."""

SOURCE, PRIVATE, MISSING = "source", "private", "missing"
TOOLCHAIN_MISSING = tr("The conversion toolchain is not installed.")


class ToolchainMissingError(UserError):
    """No interpreter has the conversion toolchain: the Convert view offers to install them, the
    CLI names its install command (field ``tools``)."""

    def __init__(self, message: str = TOOLCHAIN_MISSING, *, field: str = "tools") -> None:
        super().__init__(message, field=field)


@dataclass(frozen=True)
class ToolchainStatus:
    """Which Python runs conversions, and why.

    Attributes:
        where: ``source`` (this interpreter), ``private`` (the app's environment) or ``missing``.
        python: the interpreter conversion jobs run in; None when the tools are missing.
        env: the private environment's folder (whether or not it exists).
        missing: tool modules this interpreter lacks (empty from a complete source venv; all of
            them in a frozen app, which has no interpreter to lend).
        requirements: what the private environment was installed with (empty if none).
        outdated: the private environment was installed with another requirement list than
            this version of the app asks for (an app update changed a pin): it still runs
            conversions, and an install brings it up to date.
    """

    where: str
    python: Path | None
    env: Path
    missing: tuple[str, ...]
    requirements: tuple[str, ...] = ()
    outdated: bool = False

    @property
    def available(self) -> bool:
        """Whether a conversion can run now."""
        return self.python is not None

    def to_dict(self) -> dict[str, object]:
        """The status as JSON-ready values (``models tools --json``)."""
        return {
            "available": self.available,
            "where": self.where,
            "python": str(self.python) if self.python else None,
            "env": str(self.env),
            "missing": list(self.missing),
            "requirements": list(self.requirements),
            "outdated": self.outdated,
        }


def env_python(env: Path) -> Path:
    """The interpreter of the virtual environment ``env`` (``Scripts\\python.exe`` on Windows)."""
    if sys.platform == "win32":
        return env / "Scripts" / "python.exe"
    return env / "bin" / "python"


def missing_tool_modules() -> tuple[str, ...]:
    """Tool modules this interpreter cannot import (found without importing them)."""
    missing = []
    for name in TOOL_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package missing, or half-installed
            found = False
        if not found:
            missing.append(name)
    return tuple(missing)


def installed_requirements(env: Path) -> tuple[str, ...] | None:
    """The requirements a complete private environment was made with; None if incomplete."""
    try:
        marker = json.loads((env / MARKER).read_text(encoding="utf-8"))
        requirements = tuple(str(r) for r in marker["requirements"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return requirements if env_python(env).exists() else None


def toolchain_status(
    toolchain_dir: Path,
    *,
    frozen: bool | None = None,
    expected: Sequence[str] | None = None,
) -> ToolchainStatus:
    """Decide which Python runs conversions (see the module docstring for the order).

    Args:
        toolchain_dir: the app's tools folder (``AppPaths.toolchain_dir``).
        frozen: override :func:`app.core.runtime.is_frozen` (None: ask it).
        expected: the requirement list a current private environment was installed with
            (None: the product's, :func:`tool_requirements`); another one marks it outdated.
    """
    env = toolchain_dir / ENV_FOLDER
    frozen = is_frozen() if frozen is None else frozen
    missing = TOOL_MODULES if frozen else missing_tool_modules()
    if not missing:
        return ToolchainStatus(SOURCE, Path(sys.executable), env, ())
    requirements = installed_requirements(env)
    if requirements is not None:
        wanted = tool_requirements() if expected is None else tuple(expected)
        outdated = set(requirements) != set(wanted)
        return ToolchainStatus(PRIVATE, env_python(env), env, missing, requirements, outdated)
    return ToolchainStatus(MISSING, None, env, missing)


def job_environment(**extra: str) -> dict[str, str]:
    """The environment of a conversion subprocess: this one, plus ``extra``, with the app's
    sources first on ``PYTHONPATH`` so ``-m app.models.…`` imports in any interpreter."""
    path = [str(source_root()), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, **extra, "PYTHONPATH": os.pathsep.join(filter(None, path))}
