"""Make the fonts the test suite renders with (tests/fonts/), from DejaVu Sans and Sans Mono.

``python scripts/make_test_fonts.py [DEJAVU_FOLDER]`` (default: Debian's
``/usr/share/fonts/truetype/dejavu`` of ``fonts-dejavu-core``) writes
``tests/fonts/OVStudioTestSans.ttf`` (with ``-Bold``: bold text is as wide as on a desktop, not
a regular face smeared) and ``OVStudioTestMono.ttf``: the Latin, Greek, Cyrillic
and symbol ranges the window and its tests use, hinting and layout features kept, so glyphs
and metrics are DejaVu's own. The families are renamed ("OV Studio Test Sans" / "Mono") so a
test can tell the pinned font from an installed DejaVu. DejaVu's licence (Bitstream Vera's,
DejaVu's changes in the public domain) allows this; it is in tests/fonts/LICENSE.

Run once by hand when the ranges change; the files are committed (under 300 kB each).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fonts"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
FONTS = {  # source file -> (family, PostScript name, output file)
    "DejaVuSans.ttf": ("OV Studio Test Sans", "OVStudioTestSans", "OVStudioTestSans.ttf"),
    "DejaVuSans-Bold.ttf": (
        "OV Studio Test Sans",
        "OVStudioTestSans-Bold",
        "OVStudioTestSans-Bold.ttf",
    ),
    "DejaVuSansMono.ttf": ("OV Studio Test Mono", "OVStudioTestMono", "OVStudioTestMono.ttf"),
}
UNICODES = (
    "U+0020-007E,"  # ASCII
    "U+00A0-024F,"  # Latin-1, Latin Extended-A and -B (German, French, Polish…)
    "U+0370-03FF,U+0400-04FF,"  # Greek, Cyrillic
    "U+2000-206F,U+20A0-20CF,U+2100-214F,"  # punctuation (… — “ ”), currency, letterlike
    "U+2190-21FF,U+2200-22FF,U+2300-23FF,"  # arrows, mathematical operators, technical
    "U+2500-25FF,U+2600-26FF,U+2700-27BF,"  # box drawing, shapes, symbols, dingbats (✓ ✕)
    "U+FFFD"
)


def make(source: Path, family: str, postscript: str, target: Path) -> None:
    """Subset ``source`` to :data:`UNICODES` and rename it to ``family``."""
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["FFTM"]  # a FontForge time stamp subset cannot read
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
    subsetter.subset(font)
    rename(font, family, postscript)
    subset.save_font(font, str(target), options)


def rename(font: TTFont, family: str, postscript: str) -> None:
    """The family names of ``font`` become ``family``, its PostScript name ``postscript``; the
    style (Book, Bold) stays."""
    names = font["name"]
    style = names.getDebugName(2) or "Book"
    full = family if style == "Book" else f"{family} {style}"
    for record in list(names.names):
        ids = (record.nameID, record.platformID, record.platEncID, record.langID)
        if record.nameID in (1, 16):  # family, typographic family
            names.setName(family, *ids)
        elif record.nameID in (3, 4):  # unique name, full name
            names.setName(full, *ids)
        elif record.nameID == 6:  # PostScript name (no spaces)
            names.setName(postscript, *ids)


def main(folder: Path) -> int:
    """Write both fonts; returns the exit code."""
    for source_name, (family, postscript, target_name) in FONTS.items():
        source = folder / source_name
        if not source.is_file():
            sys.stderr.write(f"error: {source} is missing (apt-get install fonts-dejavu-core)\n")
            return 1
        make(source, family, postscript, OUT / target_name)
        sys.stdout.write(f"{OUT / target_name}: {(OUT / target_name).stat().st_size // 1000} kB\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEJAVU))
