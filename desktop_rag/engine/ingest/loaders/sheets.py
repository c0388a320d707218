"""Spreadsheets: .xlsx, .ods and Excel 97-2003 .xls (python-calamine, MIT) and .csv/.tsv (the csv module): each sheet
as Markdown table row groups with the header repeated (`ingest.tables`), heading (sheet name, "rows a-b").

Why calamine: on a 100,000-row x 8-column .xlsx with Chinese text (written by openpyxl, 4.2 MB) it read every
row in 1.47 s at 78 MB peak RSS (a fresh process each), where openpyxl's read-only mode took 26.1 s (values only;
34.6 s reading number formats too) at 53 MB: 18-24x slower for 25 MB less; both read the Chinese text exactly
(2-core x86_64, 2026-12-05). calamine also reads .ods and the binary .xls (BIFF5/8, so no LibreOffice is needed for
it; an "Excel" web page saved as .xls is read by the web-page reader). Both are MIT. calamine (Rust) gives typed
values, not Excel's formatted text,
so values are shown as a person reads them: whole numbers without ".0", dates as ISO dates, 15 significant
digits. It allocates a sheet's whole rectangle, so the rectangle its cell references span is checked from the
XML first (a cell at XFD1048576 would ask for 17 billion cells; a .xls sheet holds at most 65,536 x 256). Bounded:
MAX_CELLS filled cells per file. A sheet calamine cannot read is left out, named in the file's note
(`left_out`), and the other sheets are read.
CSV text is decoded as text files are (BOM, UTF-8, GB18030, UTF-16: `loaders.text.decode_bytes`).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import LoadContext, format_mb
from desktop_rag.engine.ingest.loaders.left_out import LeftOut
from desktop_rag.engine.ingest.loaders.zip_guard import open_zip
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.engine.ingest.documents import ParsedDocument, Section
from desktop_rag.engine.system_errors import foreign_reason

MAX_CELLS = 1_000_000  # filled cells per file (about 20 M characters of tables)
MAX_AREA = 20_000_000  # the rectangle a sheet's cell references span (calamine allocates all of it)
MAX_UNCOMPRESSED = 512 << 20
MAX_FIELD = 1 << 20  # one CSV field

_CELL_REF = re.compile(rb"<(?:\w+:)?c\b[^>]*?\br=\"([A-Z]{1,3})([0-9]{1,7})\"")


def display(value: object) -> str:
    """A cell value as a person reads it: 12 not 12.0, 2024-03-01 not a datetime, TRUE/FALSE."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.15g}"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ", "minutes")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _column(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def _check_extent(zf: zipfile.ZipFile) -> None:
    """Refuse an .xlsx whose worksheet cell references span more than MAX_AREA cells (read in 1 MiB pieces)."""
    for info in zf.infolist():
        if not (info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml")):
            continue
        rows = cols = 0
        tail = b""
        with zf.open(info) as member:
            while piece := member.read(1 << 20):
                data = tail + piece
                for m in _CELL_REF.finditer(data):
                    cols, rows = max(cols, _column(m.group(1))), max(rows, int(m.group(2)))
                tail = data[-256:]
        if rows * cols > MAX_AREA:
            sheet = info.filename.rsplit("/", 1)[-1].removesuffix(".xml")
            raise LoadError.coded("sheet_too_wide", sheet=sheet, rows=rows, cols=cols, area=MAX_AREA)


class _Budget:
    """Counts filled cells across a file's sheets; LoadError past MAX_CELLS."""

    def __init__(self) -> None:
        self.cells = 0

    def take(self, row: Sequence[str]) -> Sequence[str]:
        self.cells += sum(1 for c in row if c)
        if self.cells > MAX_CELLS:
            raise LoadError.coded("sheet_too_many_cells", cells=MAX_CELLS)
        return row


def _sheet_sections(name: str, rows: Iterable[Sequence[str]], first_row: int, table_chars: int,
                    budget: _Budget) -> list[Section]:
    kept = [(n, budget.take(row)) for n, row in enumerate(rows, first_row)]
    kept = [(n, row) for n, row in kept if any(row)]
    return table_sections([row for _, row in kept], max_chars=table_chars, heading_path=(name,),
                          row_numbers=[n for n, _ in kept])


def _is_web_page(path: Path) -> bool:
    """An "Excel" web page saved as .xls (HTML, as Excel's "Save as Web Page" and many exports write)."""
    with path.open("rb") as f:
        head = f.read(1024).lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<html", b"<!doctype html", b"<table", b"<meta")) or b"<html" in head


def load_workbook(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load an .xlsx, .ods or .xls: every worksheet's rows (the first filled row is the header)."""
    from python_calamine import CalamineWorkbook, SheetTypeEnum

    suffix = path.suffix.lower()
    if suffix == ".xls" and _is_web_page(path):
        from desktop_rag.engine.ingest.loaders.html import load_html

        return load_html(path, context)
    if suffix in (".xlsx", ".ods"):
        with open_zip(path, max_total_bytes=MAX_UNCOMPRESSED,
                      not_zip="not_xlsx" if path.suffix.lower() == ".xlsx" else "") as zf:
            if path.suffix.lower() == ".xlsx":
                _check_extent(zf)
    table_chars = (context or LoadContext()).table_chars
    budget = _Budget()
    sections: list[Section] = []
    left_out = LeftOut()
    try:
        workbook = CalamineWorkbook.from_path(str(path))
        for meta in workbook.sheets_metadata:
            if meta.typ != SheetTypeEnum.WorkSheet:  # chart sheets and macro sheets hold no cells
                continue
            with left_out.part("sheet", meta.name, passing=(LoadError,)):
                sections.extend(_read_sheet(workbook, meta.name, table_chars, budget))
        workbook.close()
    except (LoadError, OSError, MemoryError):
        raise
    except Exception as exc:  # calamine raises its own errors on damaged files
        raise _calamine_error(exc) from exc
    if not sections:
        if left_out.parts:
            raise LoadError.coded("sheet_damaged")
        raise LoadError.coded("sheet_no_text")
    return ParsedDocument(sections=tuple(sections), notes=left_out.notes())


def _calamine_error(exc: Exception) -> LoadError:
    if "limit exceeded" in str(exc).lower():  # calamine's own cap on a sheet's rectangle (.ods repeats)
        return LoadError.coded("sheet_too_large", detail=foreign_reason(exc))
    return LoadError.coded("sheet_damaged")


def _read_sheet(workbook, name: str, table_chars: int, budget: _Budget) -> list[Section]:
    """One worksheet's row groups; the file's limits (its area, the cells of the whole file) raise LoadError."""
    try:
        sheet = workbook.get_sheet_by_name(name)
    except Exception as exc:
        if "limit exceeded" in str(exc).lower():
            raise _calamine_error(exc) from exc
        raise
    if sheet.height * sheet.width > MAX_AREA:
        raise LoadError.coded("sheet_too_wide", sheet=name, rows=sheet.height, cols=sheet.width, area=MAX_AREA)
    first_row = (sheet.start[0] if sheet.start else 0) + 1
    rows = ([display(v) for v in row] for row in sheet.iter_rows())
    return _sheet_sections(name, rows, first_row, table_chars, budget)


def _dialect(sample: str, suffix: str) -> type[csv.Dialect] | csv.Dialect:
    if suffix == ".tsv":
        return csv.excel_tab
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel


def load_csv(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a .csv or .tsv: its encoding detected as a text file's, the delimiter sniffed (.tsv: tab)."""
    from desktop_rag.engine.ingest.loaders.text import read_text_file

    text = read_text_file(path)
    table_chars = (context or LoadContext()).table_chars
    csv.field_size_limit(MAX_FIELD)
    try:
        reader = csv.reader(io.StringIO(text, newline=""), _dialect(text[:1 << 16], path.suffix.lower()))
        sections = _sheet_sections(path.stem, reader, 1, table_chars, _Budget())
    except csv.Error as exc:
        raise LoadError.coded("csv_unreadable", suffix=path.suffix.lower(), detail=foreign_reason(exc),
                              mb=format_mb(MAX_FIELD)) from exc
    if not sections:
        raise LoadError.coded("no_text_left")
    return ParsedDocument(sections=tuple(sections))
