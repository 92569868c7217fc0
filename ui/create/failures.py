"""Where the Create panel says what went wrong: each field's sentence next to its control, a
model's failure next to Generate, a device's failure with "Use CPU instead"."""

from __future__ import annotations

from pipelines.core import DeviceError, InvalidInputError, PipelineError
from ui.create.edit_box import EditBox
from ui.create.gallery_view import GalleryView
from ui.create.prompt_form import PromptForm
from ui.shell.error_router import ErrorRouter, same_device
from ui.shell.notifications import NotificationBar
from ui.widgets.inline_error import InlineError

SETTINGS_FIELDS = ("size", "steps", "guidance", "count", "strength")


def error_router(
    notifications: NotificationBar,
    form: PromptForm,
    edit: EditBox,
    gallery: GalleryView,
    model_note: InlineError,
    generate_error: InlineError,
) -> ErrorRouter:
    """The panel's errors, each to the line under the control its ``field`` names."""
    return ErrorRouter(
        notifications,
        {
            "prompt": form.prompt_error,
            "negative_prompt": form.prompt_error,
            "seed": form.seed_error,
            **dict.fromkeys(SETTINGS_FIELDS, form.settings_error),
            "model": model_note,
            "image": edit.image_error,
            "mode": edit.image_error,
            "mask": edit.mask_error,
            "pixels": edit.mask_error,
            "picture": gallery.error,
            "device": generate_error,
            "": generate_error,
        },
    )


def model_failure(error: BaseException) -> bool:
    """Whether ``error`` is the model failing at its work (said next to Generate, in the
    pipeline's own sentence), not bad input nor a device that could not run it (which offers
    the CPU)."""
    if not isinstance(error, PipelineError) or isinstance(error, InvalidInputError):
        return False
    return not (isinstance(error, DeviceError) and not same_device(error.device, "CPU"))
