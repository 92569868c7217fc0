"""``python -m app devices`` and ``setup``: this computer's devices, the bundled models."""

from __future__ import annotations

import argparse
from typing import TextIO

from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.terminal import json_text, shown


def add_system_parsers(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``devices`` and ``setup`` commands."""
    devices = commands.add_parser("devices", help="list the OpenVINO devices on this computer")
    add_json(devices)
    devices.set_defaults(run=run_devices)
    setup = commands.add_parser(
        "setup", help="prepare the bundled models (converts the default embedder once)"
    )
    setup.set_defaults(run=run_setup)


def run_devices(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``devices``."""
    from app.core import device_choices, discover_devices

    choices = device_choices(discover_devices())
    if args.json:
        rows = [{"device": c.device, "label": c.label, "available": c.available} for c in choices]
        out.write(json_text({"devices": rows}) + "\n")
        return exits.OK
    for choice in choices:
        mark = "  " if choice.available else "- "
        out.write(f"{mark}{shown(choice.device):<8} {shown(choice.label)}\n")
    return exits.OK


def run_setup(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``setup``."""
    from app.core import AppPaths
    from app.models import install_default_embedder

    paths = AppPaths.from_environment()
    paths.ensure()
    folder = install_default_embedder(paths)
    out.write(f"default embedding model ready: {shown(folder)}\n")
    return exits.OK
