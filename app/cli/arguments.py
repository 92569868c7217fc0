"""Argument pieces several commands share: the sub-command table, ``--json``, text or stdin."""

from __future__ import annotations

import argparse
import sys

Commands = argparse._SubParsersAction  # the type add_subparsers returns (argparse names it so)

DEVICE_HELP = "CPU, GPU, NPU or AUTO (default: the app's setting)"


def add_json(parser: argparse.ArgumentParser, help: str = "print JSON") -> None:
    """The ``--json`` flag: machine-readable output instead of the human one."""
    parser.add_argument("--json", action="store_true", help=help)


def text_or_stdin(value: str) -> str:
    """A text argument, read from standard input when it is ``-``."""
    return sys.stdin.read() if value == "-" else value
