"""Sentences the core says to users, kept translatable without Qt.

The core is Qt-free and answers in English (the command line, logs and the server stay
English). A sentence made with :func:`tr` here is still an ordinary ``str`` — English, with its
values filled in — but it remembers its template and values, so the window can show it in the
user's language (``ui.i18n.translated``): the template is looked up in the same catalog the
window's own strings are in (``pyside6-lupdate`` extracts ``tr("…")`` calls from app/ too), then
filled with the values, themselves translated when they are such sentences.

    raise UserError(tr("No {kind} on this computer.").format(kind=kind))
"""

from __future__ import annotations

from typing import Any


class Text(str):
    """An English sentence that knows the template and values it was made from."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, values: dict[str, Any] | None = None) -> Text:
        values = values or {}
        text = super().__new__(cls, template.format(**values) if values else template)
        text.template = template
        text.values = values
        return text

    def format(self, *args: object, **values: Any) -> Text:
        if args:
            raise TypeError("translatable sentences take named placeholders only")
        return Text(self.template, {**self.values, **values})


def tr(template: str) -> Text:
    """Mark ``template`` (a literal) for translation; fill it with :meth:`Text.format`."""
    return Text(template)
