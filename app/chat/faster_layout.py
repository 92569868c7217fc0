"""Making a converted GGUF model faster in the background: which loads deserve it, and the job.

A GGUF file answers from its converted model in the file's own weight layout; the first time
it is loaded on the CPU, :func:`choose_faster_layout` tries the layouts the CPU decodes faster
and keeps the first that passes the quality check (:mod:`pipelines.gguf_relayout`). The window
runs it as a background job with progress and Cancel while the model already answers; later
loads use its result (the window, the server and the command line alike).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from app.chat.results import LoadedModel
from app.core.errors import UserError
from app.core.texts import tr
from pipelines.core import CancelToken, Progress
from pipelines.gguf_relayout import EXACT, LayoutDecision, choose_layout


def wants_faster_layout(loaded: LoadedModel) -> bool:
    """Whether ``loaded`` is a converted GGUF on the CPU whose layout is not decided yet (the
    layouts are ranked by the CPU plugin's speed on them)."""
    return (
        loaded.converted is not None
        and loaded.layout is None
        and not loaded.remote_model
        and loaded.device.split(".", 1)[0].upper() == "CPU"
    )


def choose_faster_layout(
    folder: Path, gguf: Path, cancel: CancelToken, on_progress: Callable[[Progress], None]
) -> LayoutDecision:
    """Decide the layout of the converted ``gguf`` file in ``folder`` (the window's job).

    Raises:
        UserError: the result could not be written (one sentence; nothing half-made is kept).
        RelayoutBusyError: another window is deciding it now.
        Cancelled: ``cancel`` was set.
    """
    try:
        return choose_layout(folder, gguf, cancel, on_progress)
    except OSError as error:
        raise UserError(
            tr(
                "The tuned copy of the model could not be saved ({reason}); the model keeps "
                "working as it is and the next load tries again."
            ).format(reason=error.strerror or str(error))
        ) from error


def layout_sentence(decision: LayoutDecision) -> str:
    """One sentence for the model's details: which layout runs and how its check went."""
    as_read = decision.as_read_check
    if decision.layout == EXACT and as_read is not None:
        return tr(
            "Runs in the file's own weight layout, read exactly as llama.cpp reads it "
            "(OpenVINO's own reading rounds it: perplexity {rise}); no faster layout kept "
            "its quality."
        ).format(rise=f"{float(as_read['perplexity_rise']):+.1%}")
    kept = decision.kept_check
    if kept is not None:
        return tr(
            "Runs re-laid out for this CPU ({layout}): perplexity {rise}, {agreement} of clear "
            "greedy choices the same as with the file's exact weights."
        ).format(
            layout=decision.layout,
            rise=f"{float(kept['perplexity_rise']):+.1%}",
            agreement=f"{float(kept['clear_agreement']):.1%}",
        )
    closest = decision.closest_check
    if closest is None:
        return tr("Runs in the file's own weight layout (no faster layout applies to it).")
    return tr(
        "Runs in the file's own weight layout: no faster layout kept its quality (the "
        "closest, {layout}, raised perplexity {rise})."
    ).format(layout=closest["layout"], rise=f"{float(closest['perplexity_rise']):+.1%}")
