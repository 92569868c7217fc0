"""``devices`` as a user runs it: a real subprocess, JSON out."""

from __future__ import annotations

import json

from app.core.paths import AppPaths
from tests.integration.cli.test_main import _run


def test_devices_json(app_home: AppPaths) -> None:
    result = _run(["devices", "--json"], app_home)
    assert result.returncode == 0
    rows = json.loads(result.stdout)["devices"]
    assert {"device": "AUTO", "label": "AUTO (uses CPU)", "available": True} in rows
    assert [r["available"] for r in rows if r["device"] == "CPU"] == [True]
