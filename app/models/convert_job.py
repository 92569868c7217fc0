"""The conversion job: one Hugging Face checkpoint → OpenVINO IR, in its own process.

Run by :mod:`app.models.convert` as ``python -m app.models.convert_job SOURCE OUTPUT --task T
--export JSON``; never imported by the app (it imports torch, transformers, optimum-intel and
NNCF — the conversion extra). It goes through optimum-cli's own export command, in process, so
small models are compressed exactly as ``optimum-cli export openvino`` compresses them
(``main_export()`` alone skips compression under 1B parameters).

Stdout carries only JSON lines, one event each, for the parent to read::

    {"event": "stage", "stage": "check" | "export" | "compress", "message": "..."}
    {"event": "error", "kind": "...", "message": "..."}   (then exit 3)
    {"event": "done"}                                      (then exit 0)

Everything the libraries print goes to stderr, which the parent keeps as the job's log. The job
ends itself when its parent goes away (its stdin closes), so a killed app leaves no orphan
converter running.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from app.models.hub_reach import is_unreachable, unreachable_message
from app.models.transformers_compat import answer_removed_names
from pipelines.openvino_errors import first_line

EXIT_DONE, EXIT_KNOWN_ERROR, EXIT_PARENT_GONE = 0, 3, 4

Emit = Callable[..., None]


class JobError(Exception):
    """A failure the job can explain; ``kind`` lets the parent tell them apart."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def main(argv: Sequence[str] | None = None) -> int:
    """Convert ``SOURCE`` into ``OUTPUT``; events on stdout, exit 0 / 3 (explained error)."""
    parser = argparse.ArgumentParser(description="Convert a checkpoint to OpenVINO IR.")
    parser.add_argument("source", help="checkpoint folder or hub id")
    parser.add_argument("output", type=Path, help="empty folder for the IR")
    parser.add_argument("--task", required=True, help="optimum task, e.g. text-generation")
    parser.add_argument("--export", default="[]", help="optimum-cli weight options (JSON list)")
    args = parser.parse_args(argv)
    emit = _event_writer()
    _exit_with_parent()
    answer_removed_names()  # diffusers 0.36 with transformers 5 (app.models.transformers_compat)
    try:
        if args.task in OWN_TASKS:
            _convert_own(args.source, args.output, args.task, json.loads(args.export), emit)
            emit("done")
            return EXIT_DONE
        emit("stage", stage="check", message="Checking the checkpoint's architecture")
        if args.task in DIFFUSION_TASKS:
            _check_pipeline(args.source)
        else:
            _check_supported(_model_type(args.source), args.task)
        _export(args.source, args.output, args.task, json.loads(args.export), emit)
    except JobError as error:
        emit("error", kind=error.kind, message=str(error))
        return EXIT_KNOWN_ERROR
    emit("done")
    return EXIT_DONE


DIFFUSION_TASKS = ("text-to-image", "inpainting")
"""optimum's tasks for a diffusers pipeline (model_index.json, no config.json at its top)."""
OWN_TASKS = ("speaker-encoder", "lipsync", "upscale", "preview-decoder")
"""Networks rebuilt in torch by the app itself (their checkpoints are not transformers')."""
_OWN_CHECKPOINTS = {
    "upscale": "an upscaler",
    "preview-decoder": "a tiny autoencoder (AutoencoderTiny)",
}
"""How a refusal names a task's checkpoint when "a <task>" reads wrong."""
SPEAKER_ENCODER_FILES = ("embedding_model.ckpt", "hyperparams.yaml")
TINY_AUTOENCODER_FILES = ("config.json", "diffusion_pytorch_model.safetensors")
"""A diffusers AutoencoderTiny on the hub (madebyollin/taesd): its weights as safetensors."""


def _convert_own(source: str, output: Path, task: str, options: list[str], emit: Emit) -> None:
    """Rebuild the network of ``task`` from a torch checkpoint and convert it to IR."""
    weights = options[options.index("--weights") + 1] if "--weights" in options else "fp16"
    checkpoint = Path(source)
    if not checkpoint.exists():  # a hub id: speechbrain's repository layout, or diffusers'
        emit("stage", stage="check", message=f"Downloading the checkpoint of {source}")
        names = TINY_AUTOENCODER_FILES if task == "preview-decoder" else SPEAKER_ENCODER_FILES
        checkpoint = _hub_files(source, names)
    emit("stage", stage="check", message="Rebuilding the network from the checkpoint")
    from app.models import esrgan_torch, taesd_torch, wav2lip_torch, xvector_torch

    try:
        if task == "speaker-encoder":
            emit("stage", stage="export", message="Converting the speaker encoder to OpenVINO")
            if weights == "int8":
                emit("stage", stage="compress", message="Compressing the weights with NNCF")
            xvector_torch.convert(checkpoint, output, weights=weights)
        elif task == "upscale":
            emit("stage", stage="export", message="Converting the upscaler to OpenVINO")
            if weights == "int8":
                emit("stage", stage="compress", message="Compressing the weights with NNCF")
            esrgan_torch.convert_upscaler(checkpoint, output, weights=weights)
        elif task == "preview-decoder":
            emit("stage", stage="export", message="Converting the preview decoder to OpenVINO")
            if weights == "int8":
                emit("stage", stage="compress", message="Compressing the weights with NNCF")
            taesd_torch.convert_tiny_decoder(checkpoint, output, weights=weights)
        else:
            emit("stage", stage="export", message="Converting the lip-sync model to OpenVINO")
            wav2lip_torch.convert_lipsync(
                checkpoint,
                output,
                weights=weights,
                report=lambda message: emit("stage", stage="compress", message=message),
            )
    except (
        xvector_torch.CheckpointError,
        wav2lip_torch.CheckpointError,
        esrgan_torch.CheckpointError,
        taesd_torch.CheckpointError,
    ) as error:
        what = _OWN_CHECKPOINTS.get(task, f"a {task}")
        raise JobError("not-a-model", f"Not {what} checkpoint: {error}.") from error
    except Exception as error:
        raise _explained(error) from error


def _hub_files(hub_id: str, names: Sequence[str]) -> Path:
    """Download ``names`` of a hub repository; the folder holding them."""
    folder: Path | None = None
    for name in names:
        folder = _hub_file(hub_id, name).parent
    assert folder is not None
    return folder


def _event_writer() -> Emit:
    """Keep the real stdout for events; send fd 1 (libraries' prints) to stderr."""
    sys.stdout.flush()
    channel: TextIO = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def emit(event: str, **fields: Any) -> None:
        channel.write(json.dumps({"event": event, **fields}) + "\n")
        channel.flush()

    return emit


def _exit_with_parent() -> None:
    """End this process when the parent closes our stdin (it exited or was killed)."""

    def watch() -> None:
        # The raw descriptor, not sys.stdin: a buffered reader blocked in a daemon thread
        # makes the interpreter abort at shutdown.
        with contextlib.suppress(OSError):
            while os.read(0, 4096):
                pass
        os._exit(EXIT_PARENT_GONE)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _model_type(source: str) -> str:
    """``model_type`` from the checkpoint's config.json (read from the hub for an id)."""
    folder = Path(source)
    config_file = folder / "config.json" if folder.is_dir() else _hub_config(source)
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
        return str(config["model_type"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise JobError(
            "not-a-model", f"{source} has no readable config.json with a model_type."
        ) from error


def _check_pipeline(source: str) -> None:
    """Fail fast on a source that is not a diffusers pipeline (read from the hub for an id)."""
    folder = Path(source)
    index_file = folder / "model_index.json" if folder.is_dir() else None
    if index_file is None:
        index_file = _hub_file(source, "model_index.json")
    try:
        index = json.loads(index_file.read_text(encoding="utf-8"))
        if not str(index["_class_name"]).endswith("Pipeline"):
            raise ValueError(index["_class_name"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise JobError(
            "not-a-model", f"{source} has no readable model_index.json naming a pipeline."
        ) from error


def _hub_config(hub_id: str) -> Path:
    return _hub_file(hub_id, "config.json")


def _hub_file(hub_id: str, name: str) -> Path:
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
    )

    try:
        return Path(hf_hub_download(hub_id, name))
    except GatedRepoError as error:
        raise JobError(
            "not-found", f"{hub_id} needs its licence accepted on the hub and a token."
        ) from error
    except RepositoryNotFoundError as error:
        raise JobError("not-found", f"There is no model “{hub_id}” on the hub.") from error
    except EntryNotFoundError as error:
        raise JobError(
            "not-a-model", f"{hub_id} has no {name}: it is not a checkpoint of this kind."
        ) from error
    except (LocalEntryNotFoundError, HfHubHTTPError, OSError, RuntimeError) as error:
        if is_unreachable(error):  # no connection at all: the sentence downloads use, no errno
            raise JobError("offline", unreachable_message()) from error
        if isinstance(error, RuntimeError):
            raise  # a bug, not the hub: the job's crash report keeps its traceback
        raise JobError(
            "offline", f"Cannot reach the model hub to fetch {hub_id}: {first_line(error)}"
        ) from error


def _check_supported(model_type: str, task: str) -> None:
    """Fail fast (before loading weights) on an architecture optimum-intel cannot export."""
    try:
        import optimum.exporters.openvino.model_configs  # noqa: F401 - registers the configs
        from optimum.exporters.tasks import TasksManager
    except ImportError as error:
        raise JobError(
            "missing-toolchain", f"The conversion toolchain is incomplete: {error}"
        ) from error
    try:
        tasks = TasksManager.get_supported_tasks_for_model_type(
            model_type, exporter="openvino", library_name="transformers"
        )
    except KeyError as error:
        raise JobError(
            "unsupported",
            f"optimum-intel cannot convert “{model_type}” models to OpenVINO "
            "(architecture not supported).",
        ) from error
    if task not in tasks:
        raise JobError(
            "unsupported",
            f"“{model_type}” models cannot be converted for {task}; "
            f"optimum-intel supports: {', '.join(sorted(tasks))}.",
        )


def _export(source: str, output: Path, task: str, export_args: list[str], emit: Emit) -> None:
    from optimum.commands.export.openvino import OVExportCommand, parse_args_openvino

    parser = argparse.ArgumentParser(prog="optimum-cli export openvino")
    parse_args_openvino(parser)
    options = parser.parse_args(["--model", source, "--task", task, *export_args, str(output)])
    _report_stages(emit)
    emit("stage", stage="export", message="Loading the checkpoint and exporting it to OpenVINO")
    command = OVExportCommand(None, args=options, from_defaults_factory=True, parser=parser)
    try:
        command.run()
    except Exception as error:
        raise _explained(error) from error


def _report_stages(emit: Emit) -> None:
    """Announce the compression step: wrap the function optimum's command calls for it."""
    import optimum.exporters.openvino.__main__ as export_main

    original = getattr(export_main, "_main_quantize", None)
    if original is None:  # another optimum-intel version: the stage is simply not announced
        return

    def main_quantize(*args: Any, **kwargs: Any) -> Any:
        emit("stage", stage="compress", message="Compressing the weights with NNCF")
        return original(*args, **kwargs)

    export_main._main_quantize = main_quantize


def _explained(error: Exception) -> JobError:
    """A known library failure as a message a person can act on."""
    name = type(error).__name__
    text = str(error)
    if name == "InvalidGroupSizeError":
        widths = sorted({int(w) for w in re.findall(r"channel size: (\d+)", text)})
        hint = f" (layers as narrow as {widths[0]})" if widths else ""
        return JobError(
            "bad-option",
            f"The group size does not divide the model's layer widths{hint}: choose a "
            "smaller group size that divides them, or -1 (channel-wise).",
        )
    if isinstance(error, ImportError):
        return JobError("missing-toolchain", f"The conversion toolchain is incomplete: {error}")
    if isinstance(error, MemoryError):
        return JobError("failed", "The conversion ran out of memory.")
    if isinstance(error, OSError) and getattr(error, "errno", None) == 28:
        return JobError("disk-full", "The disk is full: free some space and convert again.")
    return JobError("failed", f"The conversion failed: {name}: {first_line(error)}")


if __name__ == "__main__":
    sys.exit(main())
