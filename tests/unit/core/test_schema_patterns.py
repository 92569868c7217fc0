"""The scan of a JSON schema's regex patterns: what their counted repetitions come to, and
which repeat a repetition (exponential time for Python's ``re`` on a string that fails)."""

from __future__ import annotations

import re

import pytest

from app.core.schema_patterns import pattern_repeats
from pipelines.core import InvalidInputError


@pytest.mark.parametrize(
    ("pattern", "repeats"),
    [
        ("^[a-z]+$", 0),
        ("^[A-Z]{3}-\\d{4}$", 7),
        ("^(\\d{1,3}\\.){3}\\d{1,3}$", 12),  # an IPv4 address: 3 × 3 + 3
        ("^\\+?[1-9]\\d{1,14}$", 14),
        ("^([a-z0-9-]+\\.)+[a-z]{2,}$", 2),  # each turn ends at a dot
        ("[a-z]+(\\.[a-z]+)*", 0),
        ("^[\\w.+-]+@[\\w-]+\\.[\\w.-]+$", 0),
        ("^(?:ab)+[0-9]{2}$", 2),
        ("(a{2}){3}", 6),
        ("a{,5}", 5),
        ("x{}|y{,}", 0),  # not quantifiers in Python
        ("[(]+\\(+(?P<name>a)+", 0),
        ("(a|b)+", 0),
        ("((a+)b)+", 0),
        ("(?i)abc{3}", 3),
        ("[]{]{3}", 3),
    ],
)
def test_a_safe_pattern_counts_its_repetitions(pattern: str, repeats: int) -> None:
    re.compile(pattern)
    assert pattern_repeats(pattern, "#") == repeats


@pytest.mark.parametrize(
    "pattern",
    [
        "^(a+)+$",
        "^((a|b)*)*c$",
        "^(\\w+\\s?)*$",
        "^(a{1,10}){1,10}$",
        "(a?)+",
        "(a+|b)+",
        "(\\b\\w+)+",
        "(^a+)+",
        "^(?:[a-z]+)*$",
    ],
)
def test_a_pattern_that_repeats_a_repetition_is_refused(pattern: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        pattern_repeats(pattern, "#/properties/a")
    assert refused.value.field == "json_schema"
    assert str(refused.value).startswith(
        "The JSON schema's pattern at #/properties/a repeats a repetition ("
    )


def test_a_pattern_that_is_not_a_regex_is_scanned_without_failing() -> None:
    for broken in ("(a", "a)", "[a", "\\", "+a", "a{2,1}"):
        assert pattern_repeats(broken, "#") >= 0
