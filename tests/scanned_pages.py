"""Pictures of printed pages for the OCR tests: real text (Python's own pydoc pages) drawn in
the test fonts, turned, skewed or JPEG-compressed like a scan, and bundled as a PDF without a
text layer; and the character error rate the tests judge the reading by."""

from __future__ import annotations

import io
import pydoc
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FONTS = Path(__file__).parent / "fonts"
FONT_FILES = ("OVStudioTestSans.ttf", "OVStudioTestSans-Bold.ttf", "OVStudioTestMono.ttf")
DPI = 150
PAGE_WIDTH = 1240
"""A4's width at 150 dpi."""
MARGIN = 90


@dataclass(frozen=True)
class ScannedPage:
    """A picture of a page and the text printed on it."""

    name: str
    text: str
    pixels: np.ndarray


def pydoc_lines(module: str, count: int, start: int = 0) -> list[str]:
    """``count`` printable lines of the pydoc page of ``module`` (prose and signatures; the
    page's box-drawing bars, blank lines and the header every page shares left out), from the
    ``start``-th."""
    text = pydoc.render_doc(module, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    plain = pydoc.plain(text)
    shared_header = plain.find("location listed above.")
    if shared_header >= 0:
        plain = plain[shared_header + len("location listed above.") :]
    lines = []
    for raw in plain.splitlines():
        line = " ".join(raw.replace("|", " ").split())
        if 20 <= len(line) <= 72 and line.isascii() and sum(c.isalpha() for c in line) > 10:
            lines.append(line)
    return lines[start : start + count]


def draw_page(lines: Sequence[str], font_file: str, points: float, name: str) -> ScannedPage:
    """``lines`` printed in ``font_file`` at ``points`` pt on a white 150 dpi page."""
    from PIL import Image, ImageDraw, ImageFont

    size = round(points / 72 * DPI)
    font = ImageFont.truetype(str(FONTS / font_file), size)
    lines = fitted(lines, lambda line: font.getlength(line) <= PAGE_WIDTH - 2 * MARGIN)
    spacing = round(size * 0.6)
    height = 2 * MARGIN + len(lines) * (size + spacing)
    image = Image.new("RGB", (PAGE_WIDTH, height), "white")
    ImageDraw.Draw(image).multiline_text(
        (MARGIN, MARGIN), "\n".join(lines), font=font, fill=(20, 20, 20), spacing=spacing
    )
    return ScannedPage(name, "\n".join(lines), np.asarray(image))


def fitted(lines: Sequence[str], fits: Callable[[str], bool]) -> list[str]:
    """``lines`` wrapped at word boundaries where they are too wide for the page (a line the
    page cut off would count as the reader's error)."""
    out: list[str] = []
    for line in lines:
        current = ""
        for word in line.split(" "):
            candidate = f"{current} {word}".strip()
            if current and not fits(candidate):
                out.append(current)
                candidate = word
            current = candidate
        out.append(current)
    return out


def turned(page: ScannedPage, quarter_turns: int) -> ScannedPage:
    """The page lying on its side (counter-clockwise quarter turns), as a sideways scan."""
    pixels = np.ascontiguousarray(np.rot90(page.pixels, quarter_turns))
    return ScannedPage(f"{page.name} turned {90 * quarter_turns}°", page.text, pixels)


def skewed(page: ScannedPage, degrees: float) -> ScannedPage:
    """The page fed crooked into the scanner (turned ``degrees``, white around)."""
    from PIL import Image

    image = Image.fromarray(page.pixels).rotate(
        degrees, resample=Image.Resampling.BILINEAR, expand=True, fillcolor="white"
    )
    return ScannedPage(f"{page.name} skewed {degrees}°", page.text, np.asarray(image))


def jpeg(page: ScannedPage, quality: int) -> ScannedPage:
    """The page saved as a JPEG of ``quality`` and decoded again (its artefacts kept)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(page.pixels).save(buffer, "JPEG", quality=quality)
    pixels = np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"))
    return ScannedPage(f"{page.name} JPEG q{quality}", page.text, pixels)


def write_scanned_pdf(path: Path, pages: Sequence[ScannedPage]) -> Path:
    """A PDF of ``pages`` as pictures at 150 dpi: no text layer, as a scanner writes it."""
    from PIL import Image

    images = [Image.fromarray(page.pixels) for page in pages]
    images[0].save(path, "PDF", resolution=DPI, save_all=True, append_images=images[1:])
    return path


def normalised(text: str) -> str:
    """Text compared by characters: runs of white space are one space."""
    return re.sub(r"\s+", " ", text).strip()


def character_error_rate(read: str, truth: str) -> float:
    """Edit distance between the read and the printed text (white space normalised), per
    printed character."""
    a, b = normalised(read), normalised(truth)
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            cost = 0 if char_a == char_b else 1
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost))
        previous = current
    return previous[-1] / max(1, len(b))
