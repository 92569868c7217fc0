"""The CLI's progress line: rewritten in place, and ended before anything else is printed."""

from __future__ import annotations

import io
import signal

import pytest

from app.cli import main as cli
from app.cli import system
from app.cli.progress import ProgressLine, cancel_on_interrupt, end_open_line
from app.errors import UserError
from app.paths import AppPaths
from pipelines.core import CancelToken


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
