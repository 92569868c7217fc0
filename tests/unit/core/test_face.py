"""Each feature's face: every name it lists resolves, and importing it imports nothing else."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

FACES = [
    "app.core",
    "app.engines",
    "app.models",
    "app.chat",
    "app.knowledge",
    "app.voice",
    "app.speech",
    "app.avatar",
    "app.hands_free",
    "app.mcp",
    "app.tool_calls",
    "app.images",
    "app.server",
]


@pytest.mark.parametrize("face", FACES)
def test_every_listed_name_resolves_to_where_the_face_says(face: str) -> None:
    package = importlib.import_module(face)
    where: dict[str, str] = package._WHERE

    assert sorted(where) == sorted(package.__all__)
    for name, location in where.items():
        module_name, _, attribute = location.partition(":")
        module = importlib.import_module(module_name)
        assert getattr(package, name) is (getattr(module, attribute) if attribute else module)


@pytest.mark.parametrize("face", FACES)
def test_no_listed_name_is_also_a_module_of_the_face(face: str) -> None:
    # A submodule, once imported, is set on its package under its own name and would hide
    # the listed name of the same spelling.
    package = importlib.import_module(face)
    submodules = {info.name for info in pkgutil.iter_modules(package.__path__)}

    assert not submodules & set(package.__all__)


def test_a_name_not_listed_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        importlib.import_module("app.chat").nothing_here  # noqa: B018


def test_importing_the_faces_imports_none_of_their_modules() -> None:
    # What keeps the command line's start as fast as before the faces: a module is imported
    # when one of its names is first read.
    script = (
        "import sys\n"
        f"for face in {FACES!r}:\n"
        "    __import__(face)\n"
        "loaded = sorted(m for m in sys.modules if any(m.startswith(f + '.') for f in "
        f"{FACES!r}) and m != 'app.core.face')\n"
        "print(loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )

    assert done.stdout.strip() == "[]"
