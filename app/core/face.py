"""A feature's face: the names the front ends may use, each imported when it is first read.

A feature package's ``__init__`` says what the window, the command line and the server use
from it and which module each name lives in. A name's module is imported on first use, not
when the package is: starting the command line then costs what the command needs, not every
feature's dependencies (eager faces doubled ``--help``'s start-up time).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_exports(package: str, where: Mapping[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of a face: ``where`` maps each exported name to
    ``"module:attribute"`` (or to ``"module"`` for a module itself)."""

    def attribute_of_face(name: str) -> object:
        location = where.get(name)
        if location is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module_name, _, attribute = location.partition(":")
        module = importlib.import_module(module_name)
        value = getattr(module, attribute) if attribute else module
        # Kept on the package, so the next read does not come here again.
        setattr(sys.modules[package], name, value)
        return value

    return attribute_of_face
