"""Issue 37 item 5: crafted slides and spreadsheets (a zip bomb, billion laughs, deep nesting, a sheet spanning
17 billion cells, too many cells) each fail alone with a clear reason in the real parser child, which then
reads the next file; nothing hangs, crashes or leaks a traceback."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.parsing import CRASHED, SafeParser
from tests.support.office_files import write_pptx, write_xlsx

MIB = 1 << 20
LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10))
          + "]>")


def _rewrite(source: Path, target: Path, member: str, transform) -> Path:
    """A copy of the zip `source` with `member` replaced by transform(its text)."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == member:
                data = transform(data.decode("utf-8")).encode("utf-8")
            zout.writestr(info.filename, data)
    return target


@pytest.fixture(scope="module")
def parser():
    with SafeParser(timeout_s=60) as p:
        yield p


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("good")
    return {"pptx": write_pptx(root / "deck.pptx"), "xlsx": write_xlsx(root / "book.xlsx")}


def _fails_alone(parser: SafeParser, bad: Path, good: Path, reason: str) -> str:
    with pytest.raises(LoadError) as info:
        parser.parse(bad)
    message = str(info.value)
    assert reason in message and "Traceback" not in message and message != CRASHED
    assert parser.parse(good).sections  # the next file is read
    return message


def test_pptx_zip_bomb(parser, good, tmp_path):
    bomb = _rewrite(good["pptx"], tmp_path / "bomb.pptx", "", lambda t: t)
    with zipfile.ZipFile(bomb, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("ppt/media/zeros.bin", bytes(64 * MIB))
    _fails_alone(parser, bomb, good["pptx"], "This .pptx looks like a zip bomb")


def test_pptx_billion_laughs_is_not_expanded(parser, good, tmp_path):
    def laughs(xml: str) -> str:
        body = xml.split("?>", 1)[1] if xml.startswith("<?xml") else xml
        return LAUGHS.replace("<!DOCTYPE lolz", "<!DOCTYPE p:sld") + body.replace("Budget", "&lol9;")
    bad = _rewrite(good["pptx"], tmp_path / "laughs.pptx", "ppt/slides/slide2.xml", laughs)
    try:
        doc = parser.parse(bad)
    except LoadError as exc:
        assert str(exc) != CRASHED and "Traceback" not in str(exc)
    else:
        assert doc.char_count < 10_000  # 10^9 "lol"s were not expanded
    assert parser.parse(good["pptx"]).sections


def test_xlsx_billion_laughs_is_not_expanded(parser, good, tmp_path):
    def laughs(xml: str) -> str:
        body = xml.split("?>", 1)[1] if xml.startswith("<?xml") else xml
        return LAUGHS.replace("lolz", "worksheet") + body.replace("Person 001", "&lol9;")
    bad = _rewrite(good["xlsx"], tmp_path / "laughs.xlsx", "xl/worksheets/sheet1.xml", laughs)
    try:
        doc = parser.parse(bad)
    except LoadError as exc:
        assert str(exc) != CRASHED and "Traceback" not in str(exc)
    else:
        assert doc.char_count < 100_000
    assert parser.parse(good["xlsx"]).sections


def test_pptx_deep_nesting(parser, good, tmp_path):
    def deep(xml: str) -> str:
        return xml.replace("<p:spTree>", "<p:spTree>" + "<p:grpSp>" * 5_000 + "</p:grpSp>" * 5_000, 1)
    bad = _rewrite(good["pptx"], tmp_path / "deep.pptx", "ppt/slides/slide1.xml", deep)
    _fails_alone(parser, bad, good["pptx"], "damaged")


def test_xlsx_deep_nesting(parser, good, tmp_path):
    def deep(xml: str) -> str:
        return xml.replace("<sheetData>", "<sheetData>" + "<x>" * 50_000 + "</x>" * 50_000, 1)
    bad = _rewrite(good["xlsx"], tmp_path / "deep.xlsx", "xl/worksheets/sheet1.xml", deep)
    try:
        parser.parse(bad)
    except LoadError as exc:
        assert str(exc) != CRASHED and "Traceback" not in str(exc)
    assert parser.parse(good["xlsx"]).sections


def test_a_sheet_spanning_17_billion_cells_is_refused_before_it_is_read(parser, good, tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    book.active["A1"], book.active["XFD1048576"] = "corner", "far corner"
    sparse = tmp_path / "sparse.xlsx"
    book.save(sparse)
    message = _fails_alone(parser, sparse, good["xlsx"], "spans 1,048,576 rows x 16,384 columns")
    assert parser.restarts == 0  # refused from the XML: the child did not run out of memory or abort


def test_too_many_cells(parser, good, tmp_path):
    from desktop_rag.engine.ingest.loaders import sheets

    many = tmp_path / "many.csv"
    many.write_text("a,b,c,d,e\n" + "1,2,3,4,5\n" * (sheets.MAX_CELLS // 5 + 1), encoding="utf-8")
    _fails_alone(parser, many, good["xlsx"], f"more than {sheets.MAX_CELLS:,} filled cells")


def test_an_ods_row_repeated_a_million_times_across_16000_columns(parser, good, tmp_path):
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    book, table = OpenDocumentSpreadsheet(), Table(name="S")
    row = TableRow(numberrowsrepeated=1_048_000)
    cell = TableCell(numbercolumnsrepeated=16_000, valuetype="string")
    cell.addElement(P(text="x"))
    row.addElement(cell)
    table.addElement(row)
    book.spreadsheet.addElement(table)
    book.save(tmp_path / "repeat.ods")
    _fails_alone(parser, tmp_path / "repeat.ods", good["xlsx"], "too large to read")
