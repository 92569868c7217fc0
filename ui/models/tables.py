"""The model manager's tables, and what the Installed one says about each model.

A GGUF file shows its format and architecture, quantization, context and parameters (read once
from its metadata when it was added); an OpenVINO folder its weight precision. The bundled
embedder and folders opened from the settings say so in the Source column.

Column names are English keys (tests and callers index by them); :func:`column_title` gives
what the header shows, translated.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

from app.models import InstalledModel
from ui.a11y import describe
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


def _source(row: ListedModel) -> str:
    if row.origin is Origin.BUNDLED:
        return tr("bundled with OV Studio")
    if row.origin is Origin.FOLDER:
        return tr("opened from folder")
    model = row.model
    return model.hub_id or model.source


def _state(row: ListedModel) -> str:
    model = row.model
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
    if info is None:
        kind = "GGUF" if model.precision == "GGUF" else "OpenVINO"
        context, parameters = "", ""
    else:
        kind = f"GGUF · {info.architecture}"
        context = count(info.context_length) if info.context_length else ""
        parameters = parameters_text(info.parameters)
    return (
        model.id,
        task_label(model.task),
        kind,
        model.precision,
        context,
        parameters,
        data_size(model.size_bytes) if model.size_bytes else "",
        _source(row),
        _state(row),
    )


def installed_tooltip(model: InstalledModel) -> str:
    """Where the model is (and, for a GGUF file, everything its metadata said)."""
    if model.gguf is None:
        return str(model.folder)
    return f"{model.folder}\n{gguf_details(model.gguf)}"


def model_table(columns: tuple[str, ...]) -> QTableWidget:
    """A read-only table of whole-row, single selection, sized to its contents."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels([column_title(column) for column in columns])
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    table.setWordWrap(False)
    describe(table.horizontalHeader(), tr("Column headers"), tr("What each column shows"))
    describe(table.verticalHeader(), tr("Row headers"), tr("One row per model"))
    describe(table.horizontalScrollBar(), tr("Scroll sideways"), tr("Shows the other columns"))
    describe(table.verticalScrollBar(), tr("Scroll"), tr("Shows the other rows"))
    return table
