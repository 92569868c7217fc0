"""The dictation lost-device test (lost_device_dictation.py), in a process of its own."""

from __future__ import annotations

from pathlib import Path

from tests.own_process import run_module_alone


def test_dictation_with_a_lost_microphone_in_its_own_process() -> None:
    run_module_alone(Path(__file__).with_name("lost_device_dictation.py"))
