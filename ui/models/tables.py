"""The model manager's tables, and what the Installed one says about each model.

A GGUF file shows its format and architecture, quantization, context and parameters (read once
from its metadata when it was added); an OpenVINO folder its weight precision.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

from app.models.registry import InstalledModel
from ui.knowledge.formatting import human_size
from ui.model_text import gguf_details, parameters_text

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


def installed_cells(model: InstalledModel) -> tuple[str, ...]:
    """The row of ``model``, in the order of :data:`INSTALLED_COLUMNS`."""
    state = "ready" if model.usable else f"{model.status}: {model.problems[0]}"
    info = model.gguf
    if info is None:
        kind, context, parameters = "OpenVINO", "", ""
    else:
        kind = f"GGUF · {info.architecture}"
        context = f"{info.context_length:,}" if info.context_length else ""
        parameters = parameters_text(info.parameters)
    return (
        model.id,
        model.task.value,
        kind,
        model.precision,
        context,
        parameters,
        human_size(model.size_bytes),
        model.hub_id or model.source,
        state,
    )


def installed_tooltip(model: InstalledModel) -> str:
    """Where the model is (and, for a GGUF file, everything its metadata said)."""
    if model.gguf is None:
        return str(model.folder)
    return f"{model.folder}\n{gguf_details(model.gguf)}"


def model_table(columns: tuple[str, ...]) -> QTableWidget:
    """A read-only table of whole-row, single selection, sized to its contents."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    table.setWordWrap(False)
    return table
