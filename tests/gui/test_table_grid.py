"""Tables read as tables (issue 50 item 5): the viewer draws a document's Markdown tables as text grids with their
header, the source preview as HTML tables of plain-text cells; the passage and its quoted row land on the grid."""

from __future__ import annotations

from desktop_rag.engine import display_width as width
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.gui.table_grid import grid_text
from desktop_rag.gui.text import highlight_html

REIMBURSEMENT = [["职务", "报销类型", "一线城市报销标准（元）"], ["普通员工", "住宿费", "500"], ["部门主管", "住宿费", "600"],
                 ["部门总监", "住宿费", "700"], ["部门主管", "伙食费", "50"]]


def _document() -> str:
    groups = table_sections(REIMBURSEMENT, max_chars=80)  # several row groups, each with the header
    assert len(groups) > 1
    return "差旅报销标准如下。\n\n" + "\n\n".join(g.text for g in groups) + "\n\n超出标准的部分自理。"


def test_a_table_becomes_one_aligned_grid_with_its_header_and_prose_stays():
    text = _document()
    grid = grid_text(text)
    lines = grid.text.splitlines()
    assert lines[0] == "差旅报销标准如下。" and lines[-1] == "超出标准的部分自理。" and grid.wrap
    table = [line for line in lines if line[:1] in ("+", "|")]
    assert not any(line.startswith("| ---") for line in lines)  # no Markdown rule line left
    assert table[0].startswith("+===") and table[2].startswith("+---")  # a header row under a headed top border
    assert sum(" 职务 " in line for line in table) == 1  # the row groups' repeated headers drawn once
    assert grid.tables == 1 and len({width(line) for line in table}) == 1  # every grid line equally wide
    assert table[1].split("|")[1:4] == [" 职务     ", " 报销类型 ", " 一线城市报销标准（元） "]
    rows = [line for line in table[3:] if line.startswith("|")]
    assert [r.split("|")[1].strip() for r in rows] == ["普通员工", "部门主管", "部门总监", "部门主管"]


def test_a_passage_and_a_quoted_row_map_onto_the_grid():
    text = _document()
    grid = grid_text(text)
    row = "| 部门总监 | 住宿费 | 700 |"
    start = text.index(row)
    a, b = grid.span(start, start + len(row))
    assert grid.text[a:b] == "部门总监 | 住宿费   | 700"
    a, b = grid.span(0, len(text))
    assert (a, b) == (0, len(grid.text))
    prose = text.index("超出标准")
    assert grid.text[grid.position(prose):].startswith("超出标准")


def test_text_without_tables_is_shown_as_it_is_and_a_table_only_document_does_not_wrap():
    assert grid_text("No table | here.\nJust text.").text == "No table | here.\nJust text."
    only = grid_text("\n\n".join(s.text for s in table_sections(REIMBURSEMENT, max_chars=500)))
    assert not only.wrap and only.tables == 1


def test_long_cells_wrap_inside_their_column_and_escapes_are_undone():
    text = "| Name | Note |\n| --- | --- |\n| Ann | " + "word " * 30 + "|\n| Bob | a \\| b |"
    grid = grid_text(text)
    rows = [line for line in grid.text.splitlines() if line.startswith("|")]
    assert len(rows) > 2 and len({width(line) for line in grid.text.splitlines()}) == 1
    assert any("a | b" in line for line in rows)


def test_the_source_preview_shows_a_table_as_html_cells_of_plain_text():
    text = "Rates.\n\n| Role | <b>Rate</b> |\n| --- | --- |\n| 部门主管 | 600 |"
    shown = highlight_html(text, "部门主管")
    assert "<table" in shown and "<th" in shown and "&lt;b&gt;Rate&lt;/b&gt;" in shown and "<b>" not in shown
    assert "| --- |" not in shown and 'background-color:#ffe082;">部门主管</span></td>' in shown
