"""Whether a stand-in offers what it stands in for: every member of a Protocol (or the named
methods of a real class), each method taking the same parameters.

``isinstance`` on a ``runtime_checkable`` Protocol sees only that the names exist: a fake whose
method lost a parameter, or an engine whose method gained one, passes it. :func:`gaps` compares
the parameters too, so the tests' fakes cannot drift from the Protocols the app holds its
engines to (tests/unit/tests/ui/test_fakes.py and its neighbours).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, Protocol

_NOT_MEMBERS = frozenset({"__init__", "__class_getitem__", "__init_subclass__", "__subclasshook__"})


def protocol_members(protocol: type) -> list[str]:
    """The attributes and methods ``protocol`` (and the Protocols it extends) declares."""
    names: set[str] = set()
    for base in protocol.__mro__:
        if base in (Protocol, object) or not getattr(base, "_is_protocol", False):
            continue
        names.update(getattr(base, "__annotations__", {}))
        names.update(
            name
            for name, value in vars(base).items()
            if callable(value) or isinstance(value, property)
        )
    return sorted(
        name
        for name in names
        if name not in _NOT_MEMBERS
        and (not name.startswith("_") or name in ("__iter__", "__next__"))
    )


def signature_gaps(stand_in: Callable[..., Any], real: Callable[..., Any]) -> list[str]:
    """How ``stand_in`` cannot be called as ``real`` is (``self`` left out of both): a parameter
    of ``real`` it lacks or takes another way (by position, by keyword, with or without a
    default), or one of its own that a caller of ``real`` would not give."""
    wanted = _parameters(real)
    given = _parameters(stand_in)
    problems = []
    for name, parameter in wanted.items():
        mine = given.get(name)
        if mine is None:
            if not any(p.kind is p.VAR_KEYWORD for p in given.values()):
                problems.append(f"no parameter {name!r}")
            continue
        if mine.kind != parameter.kind:
            problems.append(
                f"{name!r} is {mine.kind.description}, not {parameter.kind.description}"
            )
        if (mine.default is mine.empty) != (parameter.default is parameter.empty):
            problems.append(
                f"{name!r} {'needs' if mine.default is mine.empty else 'has'} a default"
            )
    for name, parameter in given.items():
        if (
            name not in wanted
            and parameter.default is parameter.empty
            and parameter.kind
            not in (
                parameter.VAR_POSITIONAL,
                parameter.VAR_KEYWORD,
            )
        ):
            problems.append(f"{name!r} is required but not a parameter of the real one")
    return problems


def gaps(stand_in: object, reference: type, names: Iterable[str] | None = None) -> list[str]:
    """What ``stand_in`` (a class or an object) lacks of ``reference``'s ``names`` (default: its
    members, ``reference`` being a Protocol), or takes differently; empty when it offers all."""
    problems = []
    for name in protocol_members(reference) if names is None else names:
        if not hasattr(stand_in, name):
            problems.append(f"{name}: missing")
            continue
        real = inspect.getattr_static(reference, name, None)
        mine = inspect.getattr_static(stand_in, name, None)
        if isinstance(real, property) or not callable(real):
            continue  # an attribute: being there is what it takes
        if not callable(mine):
            problems.append(f"{name}: not a method")
            continue
        problems.extend(f"{name}: {gap}" for gap in signature_gaps(mine, real))
    return problems


def _parameters(function: Callable[..., Any]) -> dict[str, inspect.Parameter]:
    if isinstance(function, staticmethod | classmethod):
        function = function.__func__
    parameters = list(inspect.signature(function).parameters.values())
    if parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    return {parameter.name: parameter for parameter in parameters}
