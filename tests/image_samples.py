"""Pictures that claim a size they do not hold: a header only, a few dozen bytes.

A check that reads the size before decoding refuses them at once; a check that regressed
would decode nothing big either (there are no pixels behind the header), so a test of the
refusal fails quickly instead of eating the machine's memory.
"""

from __future__ import annotations

import struct
import zlib


def png_claiming(width: int, height: int) -> bytes:
    """A PNG signature and an IHDR for ``width`` × ``height`` 8-bit RGB, then IEND: no pixels."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        checksum = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + checksum

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def y4m_claiming(width: int, height: int) -> bytes:
    """A YUV4MPEG2 stream header declaring ``width`` × ``height`` frames at 25 fps, and one
    frame marker with no pixels: FFmpeg opens it (whatever the file is named) and reports
    that frame size."""
    return b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\nFRAME\n" % (width, height)
