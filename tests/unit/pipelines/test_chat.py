"""Generation settings: the defaults valid, out-of-range values named, a temperature GenAI reads as
0 greedy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipelines.core import InvalidInputError
from pipelines.generation import GenerationSettings, generation_config


def test_default_generation_settings_are_valid() -> None:
    GenerationSettings().validate()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"max_new_tokens": 0}, "max_new_tokens"),
        ({"temperature": -0.1}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
        ({"top_p": 0.0}, "top_p"),
        ({"top_p": 5e-324}, "top_p"),  # above 0, but 0 in GenAI's float
        ({"top_k": -1}, "top_k"),
        ({"repetition_penalty": 3.0}, "repetition_penalty"),
        ({"seed": -5}, "seed"),
    ],
)
def test_out_of_range_settings_name_their_field(change: dict[str, float], field: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        GenerationSettings(**change).validate()  # type: ignore[arg-type]
    assert info.value.field == field


@given(
    st.integers(1, 32_768),
    st.floats(0, 2),
    st.floats(0.01, 1),
    st.integers(0, 1000),
    st.floats(0.5, 2),
)
def test_every_in_range_combination_is_accepted(
    tokens: int, temperature: float, top_p: float, top_k: int, penalty: float
) -> None:
    GenerationSettings(tokens, temperature, top_p, top_k, penalty).validate()


def test_a_temperature_that_is_0_in_genais_float_is_greedy() -> None:
    assert generation_config(GenerationSettings(temperature=5e-324)).do_sample is False
    assert generation_config(GenerationSettings(temperature=1e-30)).do_sample is True
