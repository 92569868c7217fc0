"""The listener's lost-device test (lost_device_listening.py), in a process of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.own_process import run_module_alone

pytestmark = [pytest.mark.integration]


def test_a_lost_microphone_in_its_own_process() -> None:
    run_module_alone(Path(__file__).with_name("lost_device_listening.py"))
