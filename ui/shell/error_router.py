"""Where a background job's exception is shown.

:class:`ErrorRouter` turns what a job raised into what the user sees: an inline message next
to the control that caused it, a "Use CPU instead" offer, or a notification with details.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Mapping

from app.core import UserError
from pipelines.core import Cancelled, DeviceError, InvalidInputError, PipelineError
from ui.i18n import tr
from ui.shell.notifications import NotificationBar
from ui.widgets.inline_error import InlineError

log = logging.getLogger(__name__)


class ErrorRouter:
    """Shows an exception where it belongs.

    ``UserError`` / ``InvalidInputError`` go to the inline label registered for their
    ``field`` (or the caller's default); a ``DeviceError`` off the CPU offers "Use CPU
    instead"; other pipeline errors are already written for people and get a notification;
    anything else is logged with its stack and shown as a notification with "Copy details".
    """

    def __init__(self, notifications: NotificationBar, inline: Mapping[str, InlineError]) -> None:
        self.notifications = notifications
        self.inline = dict(inline)

    def show(
        self,
        error: BaseException,
        *,
        default_field: str,
        use_cpu: Callable[[], None] | None = None,
    ) -> None:
        """Present ``error`` to the user.

        Args:
            error: What a worker raised.
            default_field: The inline label for errors that name no (known) field.
            use_cpu: What "Use CPU instead" does; None when there is nothing to reload.
        """
        if isinstance(error, Cancelled):
            return
        off_cpu = isinstance(error, DeviceError) and not same_device(error.device, "CPU")
        if off_cpu and use_cpu is not None:
            self.notifications.show_message(
                str(error), level="error", action=(tr("Use CPU instead"), use_cpu)
            )
            return
        if isinstance(error, (UserError, InvalidInputError)):
            label = self.inline.get(error.field) or self.inline[default_field]
            label.show_message(str(error))
            return
        details = "".join(traceback.format_exception(error))
        if isinstance(error, PipelineError):
            log.warning("%s", error, exc_info=error)
            self.notifications.show_message(str(error), level="error", details=details)
            return
        log.error("unexpected error in a background job", exc_info=error)
        summary = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
        what = f"{type(error).__name__}{': ' + summary if summary else ''}"
        self.notifications.show_message(
            tr("Something went wrong ({what}). It was written to the log.").format(what=what),
            level="error",
            details=details,
        )


def same_device(device: str, other: str) -> bool:
    """Whether two device names are the same kind (``GPU.0`` and ``GPU`` are; ``CPU`` and
    ``AUTO`` are not)."""
    return device.split(".", 1)[0].upper() == other.split(".", 1)[0].upper()
