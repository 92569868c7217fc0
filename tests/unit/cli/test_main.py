"""The command line's entry point: an internal error is one line, its traceback goes to the log."""

from __future__ import annotations

import pytest

from app.cli import exits, system
from app.cli import main as cli
from app.core.paths import AppPaths


@pytest.mark.logs_error("ZeroDivisionError")  # the internal error this test plants
def test_an_internal_error_is_one_line_and_its_traceback_goes_to_the_log(
    app_home: AppPaths, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(args: object, out: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(system, "run_devices", broken)
    assert cli.main(["devices"]) == exits.INTERNAL
    assert capsys.readouterr().err == (
        "error: internal error (ZeroDivisionError: division by zero); the details are in "
        f"{app_home.log_file}\n"
    )
    logged = app_home.log_file.read_text(encoding="utf-8")
    assert "internal error in devices\nTraceback (most recent call last)" in logged
    assert 'raise ZeroDivisionError("division by zero")' in logged
