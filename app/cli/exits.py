"""How a command ends: one table of exit statuses for every command, and the errors that
choose them. The table is shown at the end of ``--help`` and in the README."""

from __future__ import annotations

OK = 0
"""Done."""
PARTIAL = 1
"""Partly done (some files failed), stopped with Ctrl+C, or the smoke test failed."""
USAGE = 2
"""A user error: one line on stderr says what to change (argparse uses 2 as well)."""
INTERNAL = 70
"""A bug (sysexits' EX_SOFTWARE): one line on stderr, the traceback in the log file."""
QUIT = 130
"""A second Ctrl+C quit at once (128 + SIGINT, as shells report it)."""

TABLE = f"""\
exit status (every command):
  {OK:<4} done
  {PARTIAL:<4} partly done (some files failed), stopped with Ctrl+C, or the smoke test failed
  {USAGE:<4} a user error; one line on stderr says what to change
  {INTERNAL:<4} an internal error (a bug); one line on stderr, the details in the log file
  {QUIT:<4} quit at once by a second Ctrl+C
The first Ctrl+C asks a running job to stop: it ends cleanly, says what it kept, exits {PARTIAL}."""


class CliError(Exception):
    """A usage problem found by the CLI itself; exits :data:`USAGE`."""


class Stopped(Exception):  # noqa: N818 - reads as what happened, like Cancelled
    """A job stopped by Ctrl+C; ``str(error)`` says what was kept. Exits :data:`PARTIAL`."""


def one_line(message: str) -> str:
    """``message`` with every run of white space (line breaks too) made one space."""
    return " ".join(message.split())
