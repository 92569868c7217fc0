"""Spreadsheets (.xlsx, .ods) and delimited tables (.csv, .tsv) as tables of text.

Each sheet is a page (numbered in workbook order; a CSV file is one unnumbered page). Its first
non-empty row is taken as the header and becomes the page's :attr:`~pipelines.rag.loaders.Page.
header`, which the chunker repeats at the top of every chunk with the sheet's name, so a chunk
of rows 900–940 alone still says what its columns mean. Rows are cells joined by `` | ``;
empty rows and trailing empty cells are dropped; cached values are read, never formulas.

A workbook is read as a stream (openpyxl's read-only mode; the ODF XML with ``iterparse``,
each row freed once read) and refused once it has made the reader visit
:data:`MAX_CELLS` cells, so a sheet of a million rows costs bounded memory and time and says
so in one sentence.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import io
from collections.abc import Iterable, Iterator
from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.rag.formats import damaged, unreadable
from pipelines.rag.loaders import Page, decode_text
from pipelines.rag.packages import DAMAGED_ZIP, open_package, read_part

MAX_CELLS = 1_000_000
"""Cells visited (empty ones between values included) per file: about a day of embedding."""
MAX_FIELD_CHARS = 1 << 20
"""Longest CSV field read (Python's default of 128 KiB refuses some real exports)."""

_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


def sheet_pages(path: Path, data: bytes) -> list[Page]:
    """The sheets of ``path`` as pages (see the module doc).

    Raises:
        InvalidInputError: damaged, too many cells, a zip bomb, or entity declarations.
    """
    suffix = path.suffix.lower()
    budget = _CellBudget(path)
    if suffix in {".csv", ".tsv"}:
        table = budget.counted(_delimited_rows(path, decode_text(path, data), suffix))
        page = _table_page(None, "", table)
        return [page] if page is not None else []
    sheets = _xlsx_sheets(path, data, budget) if suffix == ".xlsx" else _ods_sheets(path, data)
    pages = []
    for number, (name, rows) in enumerate(sheets, start=1):
        page = _table_page(number, name, rows)
        if page is not None:
            pages.append(page)
    return pages


class _CellBudget:
    """Counts visited cells and refuses the file past :data:`MAX_CELLS`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cells = 0

    def spend(self, cells: int) -> None:
        self.cells += cells
        if self.cells > MAX_CELLS:
            raise _too_many_cells(self.path)

    def counted(self, rows: Iterable[list[str]]) -> Iterator[list[str]]:
        for row in rows:
            self.spend(max(1, len(row)))
            yield row


def _too_many_cells(path: Path) -> InvalidInputError:
    return unreadable(path, f"has more than {MAX_CELLS:,} cells; the limit is {MAX_CELLS:,}")


def _table_page(number: int | None, name: str, rows: Iterable[Iterable[object]]) -> Page | None:
    """The page of one sheet: its header row repeated per chunk, the other rows as text."""
    lines: list[str] = []
    for row in rows:
        cells = [_cell_text(value) for value in row]
        while cells and not cells[-1]:
            cells.pop()
        if cells:
            lines.append(" | ".join(cells))
    if not lines:
        return None
    title = f"Sheet: {name}" if name else ""
    if len(lines) == 1:  # a header with no rows under it is the sheet's only text
        return Page(number, lines[0], header=title)
    header = "\n".join(part for part in (title, lines[0]) if part)
    return Page(number, "\n".join(lines[1:]), header=header)


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return " ".join(str(value).split())  # a cell's line breaks would break the row apart


def _trimmed(row: tuple[object, ...]) -> tuple[object, ...]:
    """``row`` without its trailing empty cells (kept rows cost only their values)."""
    end = len(row)
    while end and row[end - 1] in (None, ""):
        end -= 1
    return row[:end]


def _delimited_rows(path: Path, text: str, suffix: str) -> Iterator[list[str]]:
    """Rows of a CSV/TSV text; the delimiter is sniffed from its start (``;`` in Europe)."""
    delimiter = "\t" if suffix == ".tsv" else ","
    if suffix == ".csv":
        # One column, or too irregular to tell: commas.
        with contextlib.suppress(csv.Error):
            delimiter = csv.Sniffer().sniff(text[:8192], delimiters=",;\t|").delimiter
    csv.field_size_limit(MAX_FIELD_CHARS)
    try:
        yield from csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    except csv.Error as error:  # a field beyond MAX_FIELD_CHARS: an unclosed quote, mostly
        raise damaged(path) from error


def _xlsx_sheets(
    path: Path, data: bytes, budget: _CellBudget
) -> list[tuple[str, Iterable[Iterable[object]]]]:
    """Each worksheet's name and rows (values, not formulas), read in read-only mode."""
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    open_package(path, data).close()
    failures = (*DAMAGED_ZIP, KeyError, TypeError, AttributeError, InvalidFileException)
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except failures as error:
        raise damaged(path) from error
    try:
        # Rows are read here, inside the guard: read-only mode parses a sheet as it is walked.
        sheets: list[tuple[str, Iterable[Iterable[object]]]] = []
        for sheet in workbook.worksheets:
            # The sheet's declared size is not trusted: rows are as wide as their own cells.
            sheet.reset_dimensions()
            rows = []
            for row in sheet.iter_rows(values_only=True):
                budget.spend(max(1, len(row)))
                rows.append(_trimmed(row))
            sheets.append((str(sheet.title), rows))
        return sheets
    except InvalidInputError:
        raise
    except (*failures, SyntaxError) as error:  # SyntaxError: expat's ParseError
        raise damaged(path) from error
    finally:
        workbook.close()


def _ods_sheets(path: Path, data: bytes) -> list[tuple[str, list[list[str]]]]:
    """Each table's name and rows from ``content.xml``, streamed and freed row by row."""
    import lxml.etree

    with open_package(path, data) as archive:
        content = read_part(path, archive, "content.xml")
    sheets: list[tuple[str, list[list[str]]]] = []
    events = lxml.etree.iterparse(
        io.BytesIO(content),
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
    )
    cells_seen = 0
    try:
        for event, element in events:
            if element.tag == f"{{{_TABLE}}}table" and event == "start":
                sheets.append((element.get(f"{{{_TABLE}}}name") or "", []))
            elif element.tag == f"{{{_TABLE}}}table-row" and event == "end" and sheets:
                row, visited = _ods_row(element)
                cells_seen += visited
                if cells_seen > MAX_CELLS:
                    raise _too_many_cells(path)
                repeats = int(element.get(f"{{{_TABLE}}}number-rows-repeated") or 1)
                if row:  # an empty row repeated a million times (ODF's usual filler) is nothing
                    for _ in range(min(repeats, MAX_CELLS)):
                        sheets[-1][1].append(row)
                        cells_seen += len(row)
                        if cells_seen > MAX_CELLS:
                            raise _too_many_cells(path)
                element.clear(keep_tail=False)
                while element.getprevious() is not None:  # the rows read so far: freed
                    del element.getparent()[0]
    except (lxml.etree.LxmlError, ValueError) as error:
        raise damaged(path) from error
    return sheets


def _ods_row(row: object) -> tuple[list[str], int]:
    """A row's cell texts (trailing empties dropped) and how many cells it spans.

    Repeated empty cells are counted, not expanded, unless a value follows them.
    """
    cells: list[str] = []
    pending_empty = 0
    visited = 0
    for cell in row:  # type: ignore[attr-defined]
        if cell.tag not in (f"{{{_TABLE}}}table-cell", f"{{{_TABLE}}}covered-table-cell"):
            continue
        repeats = int(cell.get(f"{{{_TABLE}}}number-columns-repeated") or 1)
        text = " ".join(
            " ".join("".join(p.itertext()).split()) for p in cell.iter(f"{{{_TEXT}}}p")
        ).strip()
        visited += repeats
        if visited > MAX_CELLS:
            break
        if not text:
            pending_empty += repeats
            continue
        cells.extend([""] * pending_empty)
        pending_empty = 0
        cells.extend([text] * repeats)
    return cells, visited
