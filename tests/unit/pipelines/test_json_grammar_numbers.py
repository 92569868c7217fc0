"""Integer ranges as EBNF: exactly their integers, read back with the test matcher."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pipelines.json_grammar_numbers import integer_range
from tests.unit.pipelines.json_grammar_matcher import Grammar


@given(low=st.integers(-2500, 2500), span=st.integers(0, 2500))
def test_an_integer_range_matches_exactly_its_integers(low: int, span: int) -> None:
    high = low + span
    parsed = Grammar.parse(f"root ::= {integer_range(low, high)}\n")
    edges = {low - 1, low, low + 1, high - 1, high, high + 1, 0, -1, 1, (low + high) // 2}
    edges |= {10**k for k in range(5)} | {-(10**k) for k in range(5)}
    edges |= {10**k - 1 for k in range(5)} | {1 - 10**k for k in range(5)}
    for number in edges:
        assert parsed.accepts(str(number)) == (low <= number <= high), (low, high, number)
    assert not parsed.accepts("-0")
    assert not parsed.accepts("0" + str(abs(high)))


def test_an_integer_range_over_every_value_of_a_small_window() -> None:
    for low in range(-120, 121, 7):
        for high in (low, low + 5, low + 99, low + 240):
            parsed = Grammar.parse(f"root ::= {integer_range(low, high)}\n")
            for number in range(low - 15, high + 16):
                assert parsed.accepts(str(number)) == (low <= number <= high), (low, high)
