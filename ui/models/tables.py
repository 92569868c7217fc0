"""The model manager's tables, and what the Installed one says about each model.

A GGUF file shows its format and architecture, quantization, context and parameters (read once
from its metadata when it was added); an OpenVINO folder its weight precision. The bundled
embedder and folders opened from the settings say so in the Source column.

Column names are English keys (tests and callers index by them); :func:`column_title` gives
what the header shows, translated.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLocale

from app.chat import is_gguf_path
from app.models import DiskUse, InstalledModel
from ui.chat.model_text import gguf_details, parameters_text
from ui.i18n import tr
from ui.models.convert_tasks import task_label
from ui.models.listing import ListedModel, Origin
from ui.numbers import count, data_size

INSTALLED_COLUMNS = (
    "Model",
    "Task",
    "Format",
    "Weights",
    "Context",
    "Parameters",
    "Size",
    "Source",
    "State",
)


def column_title(key: str) -> str:
    """The header text of column ``key`` in the user's language."""
    titles = {
        "Model": tr("Model"),
        "Task": tr("Task"),
        "Format": tr("Format"),
        "Weights": tr("Weights"),
        "Context": tr("Context"),
        "Parameters": tr("Parameters"),
        "Size": tr("Size"),
        "Source": tr("Source"),
        "State": tr("State"),
        "Licence": tr("Licence"),
        "Devices": tr("Devices"),
        "About": tr("About"),
    }
    return titles.get(key, key)


def source_text(row: ListedModel) -> str:
    """Where the model came from, in a few words: a file or folder the user opened or added
    (used where it is, or copied), a download, a conversion, or the bundled embedder."""
    model = row.model
    is_file = is_gguf_path(model.folder)
    if row.origin is Origin.BUNDLED:
        return tr("bundled with OV Studio")
    if row.origin is Origin.FOLDER:
        return tr("file you opened") if is_file else tr("folder you opened")
    if model.source == "catalog":
        if model.hub_id:
            return tr("downloaded: {name}").format(name=model.hub_id)
        return tr("downloaded")
    if model.source == "converted":
        if model.hub_id:
            return tr("converted: {name}").format(name=model.hub_id)
        return tr("converted in OV Studio")
    if model.owned:
        return tr("copy of a file you added") if is_file else tr("copy of a folder you added")
    return tr("file you added") if is_file else tr("folder you added")


def source_tooltip(row: ListedModel) -> str:
    """Where the model's files are, and whether they are the app's copy (what Remove does)."""
    model = row.model
    if row.origin is Origin.BUNDLED:
        return tr("Set up by OV Studio in {folder}").format(folder=model.folder)
    if model.owned:
        return tr("The app's own copy, in {folder}. Remove… deletes it.").format(
            folder=model.folder
        )
    return tr("Used where it is: {path}. Remove… only takes it off this list.").format(
        path=model.folder
    )


def size_tooltip(row: ListedModel) -> str:
    """The model's size, and what its conversion for OpenVINO keeps in the app's cache."""
    size = data_size(row.model.size_bytes)
    if not row.converted_bytes:
        return size
    text = tr("{size}; converted for OpenVINO on its first load: {converted} in the app's cache")
    return text.format(size=size, converted=data_size(row.converted_bytes))


def _state(row: ListedModel) -> str:
    model = row.model
    if model.usable and is_gguf_path(model.folder) and model.gguf is None:
        return tr("reading…")
    if model.usable:
        return tr("ready")
    if row.origin is Origin.BUNDLED:
        return tr("not set up yet (Use sets it up)")
    status = {"missing": tr("missing"), "broken": tr("broken")}.get(model.status, model.status)
    return tr("{status}: {problem}").format(status=status, problem=model.problems[0])


def installed_cells(row: ListedModel) -> tuple[str, ...]:
    """The row of ``row``'s model, in the order of :data:`INSTALLED_COLUMNS`."""
    model = row.model
    info = model.gguf
    context, parameters = "", ""
    if info is not None:
        kind, weights = f"GGUF · {info.architecture}", info.quantization
        context = count(info.context_length) if info.context_length else ""
        parameters = parameters_text(info.parameters) if info.parameters else ""
    elif is_gguf_path(model.folder):  # not read yet, or not readable: the State says which
        kind, weights = "GGUF", ""
    else:
        kind, weights = "OpenVINO", model.precision
    return (
        model.id,
        task_label(model.task),
        kind,
        weights,
        context,
        parameters,
        data_size(model.size_bytes) if model.size_bytes else "",
        source_text(row),
        _state(row),
    )


def installed_tooltips(row: ListedModel) -> tuple[str, ...]:
    """Each cell's tooltip: the whole text of a cut cell, and more where there is more to say."""
    cells = installed_cells(row)
    tips = dict(zip(INSTALLED_COLUMNS, cells, strict=True))
    tips["Model"] = installed_tooltip(row.model)
    tips["Source"] = f"{cells[INSTALLED_COLUMNS.index('Source')]}\n{source_tooltip(row)}"
    tips["Size"] = size_tooltip(row) if row.model.size_bytes else ""
    info = row.model.gguf
    if info is not None and info.parameters:
        exact = QLocale().toString(info.parameters)
        tips["Parameters"] = tr("{count} parameters").format(count=exact)
    return tuple(tips[column] for column in INSTALLED_COLUMNS)


def installed_tooltip(model: InstalledModel) -> str:
    """Where the model is (and, for a GGUF file, everything its metadata said)."""
    if model.gguf is None:
        return str(model.folder)
    return f"{model.folder}\n{gguf_details(model.gguf)}"


def usage_text(use: DiskUse) -> str:
    """The Installed view's footer: what the app's copies take, and the user's files it uses."""
    text = tr("App copies use {size}").format(size=data_size(use.app_copies))
    if use.shared:
        text += " " + tr("({size} of it shared with other files by hard links)").format(
            size=data_size(use.shared)
        )
    if use.elsewhere:
        text += " · " + tr("your files in use: {size}").format(size=data_size(use.elsewhere))
    return text


def usage_tooltip(use: DiskUse, models_dir: Path, converted_cache: Path) -> str:
    """How the footer's numbers add up, and where the app's copies are."""
    lines = [
        tr("Downloaded, converted and copied models: {size} in {folder}").format(
            size=data_size(use.models), folder=models_dir
        ),
        tr("GGUF files converted for OpenVINO on their first load: {size} in {folder}").format(
            size=data_size(use.converted), folder=converted_cache
        ),
    ]
    if use.shared:
        lines.append(
            tr(
                "{size} of these are hard links to files outside the app's folders: deleting "
                "the app's copy does not free that space."
            ).format(size=data_size(use.shared))
        )
    lines.append(
        tr("Models used where they are, in your folders (never deleted by the app): {size}").format(
            size=data_size(use.elsewhere)
        )
    )
    lines.append(tr("Each file is counted once, however many names it has."))
    return "\n".join(lines)
