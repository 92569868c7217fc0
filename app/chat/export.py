"""One conversation out to Markdown, HTML or JSON, and a JSON export back in.

The HTML is one self-contained file (inline style, no script, nothing fetched) in which every
piece of text — the title, the system prompt, each message — is escaped: a model's ``<b>`` or
``<script>`` shows as text. The JSON is the app's own storage format, so an export is also what
:func:`read_import` accepts; an import always gets a new id, so it never replaces a chat.
"""

from __future__ import annotations

import html
import time
from datetime import datetime
from pathlib import Path
from typing import Literal

from app.chat.messages import MAX_TITLE_CHARS, Conversation
from app.chat.storage import ConversationStore
from app.core.errors import StorageError, UserError
from app.core.storage.json_files import Damaged, read_json_object
from app.core.texts import tr
from pipelines.files import check_input_file, write_text_atomic

Format = Literal["md", "html", "json"]
FORMATS: tuple[Format, ...] = ("md", "html", "json")
SUFFIXES: dict[Format, str] = {"md": ".md", "html": ".html", "json": ".json"}
MAX_IMPORT_BYTES = 32 * 1024 * 1024
"""Far above any real chat (a very long one is a few MB); larger files are refused unread."""
ROLE_NAMES = {"user": "You", "assistant": "Assistant"}


def export_text(conversation: Conversation, fmt: Format) -> str:
    """``conversation`` as the text of a ``fmt`` file."""
    if fmt == "md":
        return to_markdown(conversation)
    if fmt == "html":
        return to_html(conversation)
    return conversation.to_json() + "\n"


def to_markdown(conversation: Conversation) -> str:
    """A readable Markdown transcript (message text as written: it is Markdown already)."""
    lines = [f"# {_one_line(conversation.title)}", ""]
    if conversation.system_prompt.strip():
        lines += ["> **System prompt:** " + _one_line(conversation.system_prompt), ""]
    for message in conversation.messages:
        heading = ROLE_NAMES[message.role]
        if message.stopped:
            heading += " (stopped)"
        lines += [f"## {heading}", "", message.content.rstrip(), ""]
        if message.images:
            lines += [f"*({len(message.images)} image(s) attached, not exported)*", ""]
    return "\n".join(lines)


HTML_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 48em; margin: 2em auto; padding: 0 1em;
       color: #1d1d1f; background: #fff; line-height: 1.5; }
.message { border-radius: 8px; padding: .6em .9em; margin: .8em 0; }
.user { background: #e8f0fe; } .assistant { background: #f3f3f3; }
.role { font-weight: 600; font-size: .85em; color: #555; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.system { color: #555; font-style: italic; white-space: pre-wrap; }
@media (prefers-color-scheme: dark) {
  body { color: #e8e8e8; background: #1e1e1e; } .role, .system { color: #aaa; }
  .user { background: #22324a; } .assistant { background: #2a2a2a; } }
"""


def to_html(conversation: Conversation) -> str:
    """One self-contained HTML page; all text escaped, never interpreted as HTML."""
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        # Nothing may load or run, whatever a message says.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        f"<title>{esc(_one_line(conversation.title))}</title>",
        f"<style>{HTML_STYLE}</style></head><body>",
        f"<h1>{esc(_one_line(conversation.title))}</h1>",
    ]
    if conversation.system_prompt.strip():
        parts.append(f'<p class="system">{esc(conversation.system_prompt)}</p>')
    for message in conversation.messages:
        when = datetime.fromtimestamp(message.created).strftime("%Y-%m-%d %H:%M")
        parts.append(
            f'<div class="message {message.role}"><div class="role">'
            f"{esc(ROLE_NAMES[message.role])} · {esc(when)}</div>"
            f'<div class="text">{esc(message.content)}</div></div>'
        )
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_export(conversation: Conversation, fmt: Format, path: Path) -> None:
    """Write the export atomically (a temp name, then a rename: never half a file).

    Raises:
        StorageError: the file could not be written (nothing is left behind).
    """
    try:
        write_text_atomic(path, export_text(conversation, fmt), mode=0o644)
    except OSError as error:
        raise StorageError(
            tr("Could not write {name} ({reason}).").format(
                name=path.name, reason=error.strerror or error
            )
        ) from error


def read_import(path: Path) -> Conversation:
    """The conversation in a JSON export, with a new id (never the id in the file).

    Attached images are not part of an export, so their references are dropped; the title is
    normalised (one line, at most 80 characters); a pin is not carried over. Neither are its
    tools nor its knowledge collection: they name servers and collections of the machine it
    was exported on, and a tool may act without asking (an allowed one) — here it starts with
    none, and the user turns on what they want in this app.

    Raises:
        UserError: missing, a folder, a pipe or a device (refused unopened: reading a pipe
            would wait forever), unreadable, too large, not JSON, or not a chat export (one
            sentence).
    """
    check_input_file(path, "a JSON chat export", field="import")
    try:
        if path.stat().st_size > MAX_IMPORT_BYTES:
            raise UserError(
                tr("{name} is larger than {limit} MB, too large for a chat export.").format(
                    name=path.name, limit=MAX_IMPORT_BYTES // (1024 * 1024)
                )
            )
        data = read_json_object(path, max_bytes=MAX_IMPORT_BYTES)
    except OSError as error:
        raise UserError(
            tr("Could not read {name} ({reason}).").format(
                name=path.name, reason=error.strerror or error
            )
        ) from error
    if isinstance(data, Damaged):
        raise UserError(
            tr("{name} is not a chat export: it is {reason}.").format(
                name=path.name, reason=data.reason
            )
        )
    version = data.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise UserError(
            tr("{name} is not a chat export: it has a wrong “version”.").format(name=path.name)
        )
    try:
        conversation = Conversation.from_dict({**data, "id": ConversationStore.new_id()})
    except ValueError as error:
        raise UserError(
            tr("{name} is not a chat export: {error}.").format(name=path.name, error=error)
        ) from error
    conversation.title = " ".join(conversation.title.split())[:MAX_TITLE_CHARS] or "Imported chat"
    conversation.pinned = False
    conversation.tools = []
    conversation.knowledge = ""
    conversation.updated = time.time()
    for message in conversation.messages:
        message.images = []
    return conversation


def default_file_name(conversation: Conversation, fmt: Format) -> str:
    """A safe file name for the export: the title's letters, digits, spaces and dashes."""
    stem = "".join(c if c.isalnum() or c in " -_" else " " for c in conversation.title)
    stem = " ".join(stem.split())[:60] or "chat"
    return stem + SUFFIXES[fmt]


def _one_line(text: str) -> str:
    return " ".join(text.split())
