"""Issue 49 item 7: Excel 97-2003 .xls is read by the spreadsheet reader (python-calamine reads BIFF), not through
LibreOffice: where LibreOffice is missing (most Windows and macOS computers) or lacks Calc, a .xls is still indexed,
its sheets as tables with their headers exactly as the same workbook saved as .xlsx. The files are real BIFF8
workbooks written by xlwt (BSD, a dev extra), with Chinese sheet names and cells."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.loaders import LoadContext, legacy_office, load

ROWS = {
    "库存": [["品名", "数量", "单价"], ["紫砂茶壶", 7, 268], ["青瓷茶杯", 40, 35.5], ["龙井茶", 12, 1880]],
    "Staff": [["Name", "Phone", "Room"]] + [[f"Person {i:03d}", f"555-{i:04d}", 100 + i] for i in range(60)],
}


def _xls(path: Path) -> Path:
    import xlwt

    book = xlwt.Workbook(encoding="utf-8")
    for name, rows in ROWS.items():
        sheet = book.add_sheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                sheet.write(r, c, value)
    book.save(str(path))
    assert path.read_bytes()[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an OLE2 compound file (BIFF8 inside)
    return path


def _xlsx(path: Path) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in ROWS.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(str(path))
    return path


@pytest.fixture
def no_libreoffice(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a computer without LibreOffice: a .xls must not need it."""
    monkeypatch.setattr(legacy_office, "find_soffice", lambda: None)


def test_an_xls_reads_as_the_same_workbook_saved_as_xlsx(tmp_path: Path, no_libreoffice: None) -> None:
    context = LoadContext(table_chars=300)
    old = load(_xls(tmp_path / "book.xls"), max_bytes=0, context=context)
    new = load(_xlsx(tmp_path / "book.xlsx"), max_bytes=0, context=context)
    assert old.sections == new.sections
    stock = old.sections[0]
    assert stock.heading_path == ("库存", "rows 2-4")
    assert stock.text.startswith("| 品名 | 数量 | 单价 |\n| --- | --- | --- |\n| 紫砂茶壶 | 7 | 268 |")
    staff = [s for s in old.sections if s.heading_path[0] == "Staff"]
    assert len(staff) > 2 and all(s.text.startswith("| Name | Phone | Room |\n") for s in staff)  # header repeated


def test_an_xls_is_indexed_and_found_without_libreoffice(tmp_path: Path, no_libreoffice: None) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _xls(docs / "inventory.xls")
    # an "Excel" web page saved as .xls, as many exports write: the web-page reader's
    (docs / "export.xls").write_text("<html><body><table><tr><th>Port</th><th>Ships</th></tr><tr><td>Ningbo</td>"
                                     "<td>1200</td></tr><tr><td>Rotterdam</td><td>800</td></tr></table></body></html>",
                                     encoding="utf-8")
    # keyword search is what is checked here (the file is found at all), not semantics: the hashing embedder
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        report = engine.index([docs])
        assert report.added == 2 and not report.failed, report.failed
        hit = next(h for h in engine.search("紫砂茶壶", 5) if "紫砂茶壶" in h.text)
        assert hit.path == str(docs / "inventory.xls") and "| 紫砂茶壶 | 7 | 268 |" in hit.text
        assert engine.search("Rotterdam ships", 1)[0].path == str(docs / "export.xls")
    finally:
        engine.close()
