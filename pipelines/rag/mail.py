"""E-mail: a message (.eml) or a mailbox (.mbox) read with the standard library's ``email``.

A message is a page: its From, To, Cc, Date and Subject as the page's header (repeated at the
top of each chunk, so a chunk of a long mail still says whose mail it is), its body (the
plain-text part, else the HTML part through :func:`~pipelines.rag.html_text.html_text`), then
each attachment that is itself a readable document (a PDF, a sheet, a forwarded message …),
read through the same loaders. Attachments are bounded in number, size and depth (a message
attached to a message attached to …); one that cannot be read is left out, not the mail.

A mailbox is split at its ``From `` lines (mboxo and mboxrd alike) and each message is a page
numbered from 1; more than :data:`MAX_MESSAGES` refuses the mailbox before any is parsed.
"""

from __future__ import annotations

import logging
import re
from email import policy
from email.message import EmailMessage, MIMEPart
from email.parser import BytesParser
from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.rag.formats import damaged, unreadable
from pipelines.rag.html_text import html_text
from pipelines.rag.loaders import SUPPORTED_SUFFIXES, Page, document_pages

log = logging.getLogger(__name__)

MAX_MESSAGES = 10_000
"""Messages in one mailbox: about an hour of embedding on a laptop CPU."""
MAX_ATTACHMENTS = 50
"""Attachments read per message."""
MAX_ATTACHMENT_BYTES = 50 << 20
"""Larger attachments are left out (the whole mail file is bounded by the loaders' limit)."""
MAX_DEPTH = 3
"""Messages attached inside messages are read this deep."""
HEADERS = ("From", "To", "Cc", "Date", "Subject")
_MBOX_SEPARATOR = re.compile(rb"(?:\A|(?<=\n))From [^\n]*\n")


def mail_pages(path: Path, data: bytes) -> list[Page]:
    """A message as one page, or a mailbox's messages as pages numbered from 1.

    Raises:
        InvalidInputError: too many messages, or a damaged message.
    """
    if path.suffix.lower() == ".mbox":
        return [
            Page(number, page.text, header=page.header)
            for number, page in enumerate(_mailbox_pages(path, data), start=1)
        ]
    return [_message_page(path, data, 0)]


def _mailbox_pages(path: Path, data: bytes) -> list[Page]:
    starts = []
    for match in _MBOX_SEPARATOR.finditer(data):
        starts.append((match.start(), match.end()))
        if len(starts) > MAX_MESSAGES:
            raise unreadable(
                path, f"holds more than {MAX_MESSAGES:,} messages; the limit is {MAX_MESSAGES:,}"
            )
    if not starts:
        raise unreadable(path, "is not a mailbox (no message starts with a From line)")
    ends = [start for start, _ in starts[1:]] + [len(data)]
    pages = []
    for (_, body_start), end in zip(starts, ends, strict=True):
        # mboxrd quotes body lines starting "From " as ">From ": one level is removed.
        message = re.sub(rb"(?m)^>(>*From )", rb"\1", data[body_start:end])
        pages.append(_message_page(path, message, 0))
    return pages


def _message_page(path: Path, data: bytes, depth: int) -> Page:
    try:
        message = BytesParser(policy=policy.default).parsebytes(data)
        if not isinstance(message, EmailMessage):  # policy.default always makes one
            raise damaged(path)
        return _page_of(path, message, depth)
    except InvalidInputError:
        raise
    except (ValueError, LookupError, TypeError, AttributeError, RecursionError) as error:
        raise damaged(path) from error


def _page_of(path: Path, message: EmailMessage, depth: int) -> Page:
    header = "\n".join(
        f"{name}: {' '.join(str(message[name]).split())}"
        for name in HEADERS
        if message[name] is not None and str(message[name]).strip()
    )
    parts = [_body(message)]
    if depth < MAX_DEPTH:
        parts += _attachments(path, message, depth)
    return Page(None, "\n\n".join(part for part in parts if part.strip()), header=header)


def _body(message: EmailMessage) -> str:
    """The plain-text body, else the HTML body's text, else ""."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    text = _text_content(part)
    return html_text(text) if part.get_content_subtype() == "html" else text


def _text_content(part: MIMEPart) -> str:
    try:
        return str(part.get_content())
    except (LookupError, ValueError, AssertionError):
        # An unknown or lying charset: the bytes as UTF-8, undecodable ones replaced.
        payload = part.get_payload(decode=True)
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


def _attachments(path: Path, message: EmailMessage, depth: int) -> list[str]:
    texts = []
    for count, part in enumerate(message.iter_attachments()):
        if count >= MAX_ATTACHMENTS:
            log.info("%s: attachments after the first %d left out", path.name, MAX_ATTACHMENTS)
            break
        if part.get_content_type() == "message/rfc822":
            inner = part.get_content()
            if isinstance(inner, EmailMessage):
                forwarded = _page_of(path, inner, depth + 1)
                texts.append(f"Attached message:\n{forwarded.header}\n\n{forwarded.text}")
            continue
        name = Path((part.get_filename() or "").replace("\\", "/")).name
        if not name or Path(name).suffix.lower() not in SUPPORTED_SUFFIXES:
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes) or not payload:
            continue
        if len(payload) > MAX_ATTACHMENT_BYTES:
            log.info("%s: attachment %s is too large, left out", path.name, name)
            continue
        try:
            if Path(name).suffix.lower() in {".eml", ".mbox"}:
                pages = [_message_page(Path(name), payload, depth + 1)]
            else:
                pages = document_pages(Path(name), payload)
        except InvalidInputError as error:
            log.info("%s: attachment left out: %s", path.name, error)
            continue
        body = "\n\n".join("\n".join(p for p in (page.header, page.text) if p) for page in pages)
        texts.append(f"Attachment {name}:\n{body}")
    return texts
