"""OpenDocument text: files written by odfpy (the format's own writer library), English and Chinese."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders.odt import load_odt

odf = pytest.importorskip("odf")  # a dev dependency: it writes the test files only


def _write_odt(path: Path) -> Path:
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, List, ListItem, P, S, Span, Tab

    doc = OpenDocumentText()
    doc.text.addElement(H(outlinelevel=1, text="Harbour report"))
    doc.text.addElement(P(text="The harbour handled 1.2 million containers in 2026."))
    para = P(text="Cranes:")
    para.addElement(S(c=3))
    para.addElement(Span(text="twelve"))
    para.addElement(Tab())
    para.addElement(Span(text="new"))
    doc.text.addElement(para)
    doc.text.addElement(H(outlinelevel=2, text="港口概况"))
    doc.text.addElement(P(text="宁波舟山港是世界上货物吞吐量最大的港口。"))
    items = List()
    for text in ("First berth opened in May", "第二个泊位六月开放"):
        item = ListItem()
        item.addElement(P(text=text))
        items.addElement(item)
    doc.text.addElement(items)
    table = Table(name="Berths")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    for row_values in (("Berth", "Depth"), ("North", "17 m"), ("南港", "15 m")):
        row = TableRow()
        for value in row_values:
            cell = TableCell()
            cell.addElement(P(text=value))
            row.addElement(cell)
        table.addElement(row)
    doc.text.addElement(table)
    doc.save(str(path))
    return path


def test_headings_paragraphs_lists_and_tables(tmp_path: Path) -> None:
    doc = load_odt(_write_odt(tmp_path / "report.odt"))
    assert [s.heading_path for s in doc.sections] == [("Harbour report",), ("Harbour report", "港口概况"),
                                                      ("Harbour report", "港口概况")]
    first, second, table = (s.text for s in doc.sections)
    assert first.startswith("Harbour report\n\nThe harbour handled 1.2 million containers in 2026.")
    assert "Cranes: twelve\tnew" in first  # text:s become spaces (collapsed by the cleaner), text:tab a tab
    assert "宁波舟山港是世界上货物吞吐量最大的港口。" in second
    assert "First berth opened in May\n\n第二个泊位六月开放" in second
    assert table == "| Berth | Depth |\n| --- | --- |\n| North | 17 m |\n| 南港 | 15 m |"  # a section of its own
    assert all(s.page is None for s in doc.sections)


def test_not_odt_and_spreadsheet_renamed(tmp_path: Path) -> None:
    bad = tmp_path / "a.odt"
    bad.write_bytes(b"{\\rtf1 not a zip}")
    with pytest.raises(LoadError, match="Not an OpenDocument"):
        load_odt(bad)
    sheet = tmp_path / "s.odt"
    with zipfile.ZipFile(sheet, "w") as zf:
        zf.writestr("content.xml", '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:'
                    'xmlns:office:1.0"><office:body><office:spreadsheet/></office:body></office:document-content>')
    with pytest.raises(LoadError, match="no text document"):
        load_odt(sheet)
