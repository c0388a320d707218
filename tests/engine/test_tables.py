"""Tables keep their structure (issue 37 item 3): Markdown row groups of at most the chunk size, the header
repeated in each, so every chunk of a long table can answer "what is X's Y" alone."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.ingest.chunking import chunk_document
from desktop_rag.engine.ingest.loaders import LoadContext, load
from desktop_rag.engine.ingest.tables import cell_text, table_sections
from desktop_rag.engine.ingest.documents import ParsedDocument

HEADER = ["City", "Population", "Mayor"]
ROWS = [HEADER] + [[f"City{i}", str(1000 + i), f"Mayor {i}"] for i in range(200)]


def test_row_groups_fit_the_chunk_size_and_repeat_the_header():
    sections = table_sections(ROWS, max_chars=300, heading_path=("Towns",))
    assert len(sections) > 10
    head = "| City | Population | Mayor |\n| --- | --- | --- |\n"
    for s in sections:
        assert len(s.text) <= 300 and s.text.startswith(head) and s.heading_path == ("Towns",)
    body = [line for s in sections for line in s.text.splitlines()[2:]]
    assert body == [f"| City{i} | {1000 + i} | Mayor {i} |" for i in range(200)]  # every row once, in order
    chunks = chunk_document(ParsedDocument(tuple(sections)), size=300, overlap=30)
    assert len(chunks) == len(sections) and all(c.text.startswith(head) for c in chunks)


def test_sheet_row_numbers_and_empty_rows():
    rows = [["Name", "Age", ""], ["", "", ""], ["Ann", "31", ""], ["Bob", None, ""]]
    (s,) = table_sections(rows, max_chars=500, heading_path=("Sheet1",), row_numbers=[1, 2, 3, 4])
    assert s.heading_path == ("Sheet1", "rows 3-4")  # the empty row 2 dropped, the empty column too
    assert s.text == "| Name | Age |\n| --- | --- |\n| Ann | 31 |\n| Bob |  |"


def test_cells_stay_on_one_line_and_pipes_are_escaped():
    assert cell_text("a | b\nc\\d") == "a \\| b c\\\\d"
    assert table_sections([["x"]], max_chars=10) and table_sections([], max_chars=10) == []


def test_a_row_longer_than_the_chunk_size_is_kept_whole():
    rows = [["k", "v"], ["a", "x" * 50], ["b", "y"]]
    sections = table_sections(rows, max_chars=40)
    assert [s.text.splitlines()[2] for s in sections] == ["| a | " + "x" * 50 + " |", "| b | y |"]


def test_a_long_docx_table_chunks_with_its_header(tmp_path: Path):
    import docx

    document = docx.Document()
    document.add_heading("Staff", 1)
    table = document.add_table(rows=1, cols=3)
    for cell, text in zip(table.rows[0].cells, ("Name", "Office", "Phone")):
        cell.text = text
    for i in range(80):
        for cell, text in zip(table.add_row().cells, (f"Person {i}", f"Room {i}", f"555-{i:04d}")):
            cell.text = text
    document.add_paragraph("Call ahead.")
    path = tmp_path / "staff.docx"
    document.save(path)
    doc = load(path, max_bytes=1 << 24, context=LoadContext(table_chars=400))
    chunks = chunk_document(doc, size=400, overlap=40)
    rows = [c for c in chunks if "| Person" in c.text]
    assert len(rows) > 5 and all(c.text.startswith("| Name | Office | Phone |") for c in rows)
    assert all(c.heading == "Staff" for c in rows)
    assert chunks[-1].text == "Call ahead."
