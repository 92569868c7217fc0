"""``python -m app models tools``: the conversion toolchain's status, install and removal."""

from __future__ import annotations

import argparse
from typing import TextIO

from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from app.core import AppPaths, UserError
from app.models import (
    DISK_BYTES,
    DOWNLOAD_BYTES,
    MISSING,
    PRIVATE,
    InstallProgress,
    ToolchainStatus,
    install_toolchain,
    remove_toolchain,
    size_text,
    toolchain_status,
)

INSTALL_COMMAND = "models tools --install"
SIZES = f"about {size_text(DOWNLOAD_BYTES)} to download, {size_text(DISK_BYTES)} on disk"
STOPPED = "stopped; nothing was installed (the partial environment was removed)"


def add_tools_parser(actions: Commands[argparse.ArgumentParser]) -> None:
    """The ``models tools`` action."""
    tools = actions.add_parser(
        "tools",
        help="the conversion toolchain (torch, optimum-intel, NNCF): status, install, remove",
        description="Converting checkpoints needs torch, transformers, optimum-intel and NNCF. "
        "A source checkout uses its own virtualenv when they are installed there; otherwise "
        f"--install puts them in a private environment in the app's data folder ({SIZES}), "
        "with uv. Packages come from PyPI, torch from PyTorch's CPU index; uv's own variables "
        "(UV_INDEX_URL, UV_FIND_LINKS, UV_OFFLINE…) choose other sources. An install checks "
        "that every package arrived at its pinned version before the environment is used. "
        "Without options: where conversions run, and whether the private environment was "
        "installed with an earlier release's versions (then --install updates it). Ctrl+C "
        "stops and removes the partial environment (exit status 1).",
    )
    what = tools.add_mutually_exclusive_group()
    what.add_argument("--install", action="store_true", help="install (or update) them")
    what.add_argument("--remove", action="store_true", help="delete the private environment")
    add_json(tools, "print the status as JSON")


def run_tools(args: argparse.Namespace, paths: AppPaths, out: TextIO) -> int:
    """Run ``models tools``; user errors raise UserError (exit 2), Ctrl+C exits 1."""
    if args.install:
        with interruptible(STOPPED) as cancel, ProgressLine() as line:

            def show(progress: InstallProgress) -> None:
                amount = ""
                if progress.total_bytes:
                    amount = (
                        f" ({size_text(progress.done_bytes)} of {size_text(progress.total_bytes)})"
                    )
                line.show(f"{progress.message}{amount}")

            install_toolchain(paths.toolchain_dir, on_progress=show, cancel=cancel)
    elif args.remove and not remove_toolchain(paths.toolchain_dir):
        raise UserError("There is no private conversion toolchain to remove.")
    status = toolchain_status(paths.toolchain_dir)
    if args.json:
        out.write(json_text(status.to_dict()) + "\n")
    else:
        out.write(shown(describe(status)) + "\n")
    return exits.OK


def describe(status: ToolchainStatus) -> str:
    """One line on where conversions run."""
    if status.where == MISSING:
        return f"conversion toolchain: not installed; `{INSTALL_COMMAND}` installs it ({SIZES})"
    if status.where == PRIVATE and status.outdated:
        return (
            f"conversion toolchain: installed in {status.env} with the versions of an earlier "
            f"release; `{INSTALL_COMMAND}` updates them"
        )
    if status.where == PRIVATE:
        return f"conversion toolchain: installed in {status.env}"
    return f"conversion toolchain: this Python's environment ({status.python})"
