"""Tables keep their structure (issue 37 item 3): Markdown row groups of at most the chunk size, the header
repeated in each, so every chunk of a long table can answer "what is X's Y" alone."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.ingest.chunking import chunk_document
from desktop_rag.engine.ingest.loaders import LoadContext, load
from desktop_rag.engine.ingest.chunking import split_text
from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.ingest.tables import cell_text, markdown_tables, shortened, table_sections

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
    rows = [["k", "v"], ["a", "x" * 100], ["b", "y"]]
    sections = table_sections(rows, max_chars=80)
    assert [s.text.splitlines()[2] for s in sections] == ["| a | " + "x" * 100 + " |", "| b | y |"]


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


# ---- wide tables (issue 50): no chunk without data, about as many chunks as prose of the same size ----

WIDE_HEADER = [f"Codice statistico numero {i} (valida a fini statistici dal 2010 al 2016)" for i in range(26)]
WIDE_ROWS = [WIDE_HEADER] + [[f"{r:03d}{c:02d}" if c else f"Comune {r}" for c in range(26)] for r in range(400)]


def _data_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[2:] if len(lines) > 1 and set(lines[1]) <= set("|- :") else lines


def test_a_wide_table_costs_about_what_prose_costs_and_every_chunk_holds_data():
    sections = table_sections(WIDE_ROWS, max_chars=500, heading_path=("Comuni",), row_numbers=range(1, 402))
    chunks = chunk_document(ParsedDocument(tuple(sections)), size=500, overlap=50)
    data = "\n".join("| " + " | ".join(row) + " |" for row in WIDE_ROWS[1:])
    prose = len(split_text(data, 500, 50))  # the rows' own text chunked as prose
    assert len(chunks) <= 1.3 * prose  # before: ~3 chunks a row (8x prose), most of them header pieces
    body = [line for c in chunks for line in _data_lines(c.text)]
    assert body == data.splitlines()  # every row once, in order, none cut
    for chunk in chunks:
        header, rule = chunk.text.splitlines()[:2]
        assert header.startswith("| Codice") and header.count("|") == 27 and set(rule) <= set("|- ")
        assert len(header) <= 500 and len(chunk.text) <= 2 * 500 + 4 * 26  # header + rows + its compact rule
        assert chunk.heading.startswith("Comuni > rows ")


def test_a_narrow_table_keeps_its_layout():
    narrow = table_sections(ROWS, max_chars=500)
    assert all(s.text.startswith("| City | Population | Mayor |\n| --- | --- | --- |") and not s.whole for s in narrow)


def test_wide_column_names_are_shortened_notes_first_then_evenly():
    assert shortened(["a", "b"], 500) == ["a", "b"]
    assert shortened(["Price (yuan)", "Rate (per cent)"], 20) == ["Price", "Rate"]
    names = shortened(WIDE_HEADER, 500)
    assert len("| " + " | ".join(names) + " |") <= 500 + 26  # each name at most its share
    assert all(n.startswith("Codice") and "…" in n for n in names) and len(set(names)) == 26  # still told apart
    assert all(name.endswith(str(i)) for i, name in enumerate(names))  # the part that tells them apart


def test_a_row_longer_than_the_chunk_size_of_a_wide_table_becomes_a_record():
    header = [f"column name {i}" for i in range(20)]
    rows = [header, ["short"] * 20, [f"a long value number {i}" for i in range(20)], ["tail"] * 20]
    sections = table_sections(rows, max_chars=200)
    record = [s for s in sections if not s.text.startswith("|")]
    assert len(record) == 1 and record[0].text.splitlines()[0] == "column name 0: a long value number 0"
    chunks = chunk_document(ParsedDocument(tuple(sections)), size=200, overlap=20)
    pieces = [c for c in chunks if "a long value" in c.text]
    assert len(pieces) > 1  # each piece's lines name their column (the first may be the overlap's tail)
    assert all(line.startswith("column name ") for c in pieces for line in c.text.splitlines()[1:])
    assert all(c.text.splitlines()[0].startswith("column name ") or c.char_start < p.char_end
               for c, p in zip(pieces[1:], pieces))


def test_markdown_tables_are_read_back_with_header_rows_and_spans():
    text = "Intro.\n\n| Name | Note |\n| --- | --- |\n| Ann | a \\| b |\n| Bob |  |\n\nEnd | not a table"
    (table,) = markdown_tables(text)
    assert [c.text for c in table.header] == ["Name", "Note"]
    assert [[c.text for c in cells] for cells, _ in table.rows] == [["Ann", "a | b"], ["Bob", ""]]
    cells, (start, end) = table.rows[0]
    assert text[start:end] == "| Ann | a \\| b |" and text[cells[0].start:cells[0].end] == "Ann"
    assert text[table.start:table.end].endswith("| Bob |  |")
    (plain,) = markdown_tables("| a | b |\n| c | d |")
    assert plain.header is None and len(plain.rows) == 2  # no rule line: no header
    assert markdown_tables("ends with an escaped pipe \\|") == [] and markdown_tables("|") == []
