"""The stand-in check of tests/protocols.py: a faithful stand-in passes, and each way a fake
can drift from what it stands in for is named."""

from __future__ import annotations

from typing import Protocol

from tests.protocols import gaps, protocol_members, signature_gaps


class Engine(Protocol):
    name: str

    @property
    def loaded(self) -> bool: ...

    def run(self, text: str, *, cancel: object | None = None) -> str: ...


class Faithful:
    name = "engine"
    loaded = True

    def run(self, text: str, *, cancel: object | None = None) -> str:
        return text


def test_the_members_of_a_protocol_are_its_attributes_and_methods() -> None:
    assert protocol_members(Engine) == ["loaded", "name", "run"]


def test_a_faithful_stand_in_has_no_gaps() -> None:
    assert gaps(Faithful, Engine) == []
    assert gaps(Faithful(), Engine) == []


def test_a_missing_member_is_named() -> None:
    class NoRun:
        name = "engine"
        loaded = True

    assert gaps(NoRun, Engine) == ["run: missing"]


def test_each_way_a_method_can_drift_is_named() -> None:
    def lost(self: object) -> str: ...
    def positional(self: object, text: str, cancel: object | None = None) -> str: ...
    def required(self: object, text: str, *, cancel: object) -> str: ...
    def extra(self: object, text: str, depth: int, *, cancel: object | None = None) -> str: ...

    real = Engine.run
    assert signature_gaps(lost, real) == ["no parameter 'text'", "no parameter 'cancel'"]
    assert signature_gaps(positional, real) == [
        "'cancel' is positional or keyword, not keyword-only"
    ]
    assert signature_gaps(required, real) == ["'cancel' needs a default"]
    assert signature_gaps(extra, real) == [
        "'depth' is required but not a parameter of the real one"
    ]
