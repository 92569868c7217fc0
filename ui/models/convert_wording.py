"""Conversion errors in the Convert view's words: GUI field names, not command-line flags.

The plan and the conversion job are shared with the command line (``models convert``), whose
messages may name its flags or optimum-cli's ("--weight-format int4"); the window has no flags,
only fields. Their texts stay as they are for the CLI and are reworded here, at the UI layer.
"""

from __future__ import annotations

import re

from app.core import UserError
from ui.i18n import tr

# The flags the shared messages may name; longest first, so "--weight-format" is not read as
# "--weight".
FLAGS = (
    "--weight-format",
    "--group-size",
    "--model-kwargs",
    "--weights",
    "--vocoder",
    "--ratio",
    "--model",
    "--task",
    "--name",
    "--sym",
)
_FLAG = re.compile(r"(?<![\w-])(" + "|".join(re.escape(flag) for flag in FLAGS) + r")(?![\w-])")


def field_name(flag: str) -> str:
    """The Convert view's field for a command-line ``flag`` (quoted, as a field name)."""
    names = {
        "--weight-format": tr("Weight format"),
        "--weights": tr("Weight format"),
        "--group-size": tr("Group size"),
        "--ratio": tr("Ratio"),
        "--sym": tr("Symmetric"),
        "--task": tr("Task"),
        "--model": tr("Checkpoint"),
        "--name": tr("Install as"),
        "--vocoder": tr("Vocoder"),
        "--model-kwargs": tr("Vocoder"),
    }
    return "“" + names.get(flag, flag) + "”"


def gui_message(text: str) -> str:
    """``text`` with every command-line flag replaced by the field it corresponds to."""
    return _FLAG.sub(lambda match: field_name(match.group(1)), text)


def gui_error(error: BaseException) -> BaseException:
    """``error``, reworded for the window when it is a user error naming flags."""
    if isinstance(error, UserError):
        text = gui_message(str(error))
        if text != str(error):
            return UserError(text, field=error.field)
    return error
