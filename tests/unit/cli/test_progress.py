"""The CLI's progress line (rewritten in place, ended before anything else is printed) and its
Ctrl+C."""

from __future__ import annotations

import io
import signal

import pytest

from app.cli import exits, system
from app.cli import main as cli
from app.cli.progress import (
    STOPPING,
    ProgressLine,
    cancel_on_interrupt,
    end_open_line,
    interruptible,
)
from app.core.errors import UserError
from app.core.paths import AppPaths
from pipelines.core import Cancelled, CancelToken


def test_a_shorter_text_blanks_out_the_longer_one_before_it() -> None:
    stream = io.StringIO()
    with ProgressLine(stream) as line:
        line.show("12/100 frames, about 10 s left")
        line.show("13/100 frames")
        line.show("a\nsecond line\tand tabs")
    shown = stream.getvalue()
    assert shown.split("\r")[2] == "13/100 frames" + " " * 17
    assert shown.endswith("\ra second line and tabs\n")  # one line, ended by the block


def test_a_line_is_ended_once_and_only_when_one_is_open() -> None:
    stream = io.StringIO()
    with ProgressLine(stream):
        pass
    assert stream.getvalue() == ""  # nothing shown: no empty line either
    line = ProgressLine(stream)
    line.show("working")
    end_open_line(stream)
    end_open_line(stream)
    line.end()
    assert stream.getvalue() == "\rworking\n"


@pytest.mark.parametrize(
    ("failure", "code", "message"),
    [
        (UserError("the database went away"), 2, "error: the database went away"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ],
)
def test_the_cli_says_an_error_on_its_own_line_after_a_progress_line(
    app_home: AppPaths,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failure: BaseException,
    code: int,
    message: str,
) -> None:
    def failing_command(args: object, out: object) -> int:
        ProgressLine().show("3/9 files, 40 chunks (12/s, about 0 s left)")
        raise failure  # the line was not ended by the command

    monkeypatch.setattr(system, "run_devices", failing_command)
    assert cli.main(["devices"]) == code
    err = capsys.readouterr().err
    assert err.split("\n") == ["\r3/9 files, 40 chunks (12/s, about 0 s left)", message, ""]
    assert cli.main(["devices"]) == code  # the next run starts clean: no stray newline
    assert capsys.readouterr().err.count("\n") == 2


def test_a_second_ctrl_c_stops_the_program() -> None:
    cancel = CancelToken()
    handler = cancel_on_interrupt(cancel)
    handler(signal.SIGINT, None)
    assert cancel.cancelled
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGINT, None)


def test_the_first_ctrl_c_ends_the_line_says_so_and_silences_it() -> None:
    stream = io.StringIO()
    cancel = CancelToken()
    handler = cancel_on_interrupt(cancel, stream)
    with ProgressLine(stream) as line:
        line.show("3/9 files")
        handler(signal.SIGINT, None)
        line.show("4/9 files")  # the job winds down: its progress is not news any more
    assert cancel.cancelled
    assert stream.getvalue() == f"\r3/9 files\n{STOPPING}\n"


def test_a_job_stopped_by_ctrl_c_says_what_it_kept_and_exits_1(
    app_home: AppPaths, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def stopped_job(args: object, out: object) -> int:
        with interruptible("stopped: nothing was written") as cancel:
            cancel.cancel()  # as the first Ctrl+C does
            raise Cancelled("the job noticed")

    monkeypatch.setattr(system, "run_devices", stopped_job)
    assert cli.main(["devices"]) == exits.PARTIAL
    assert capsys.readouterr().err == "stopped: nothing was written\n"
