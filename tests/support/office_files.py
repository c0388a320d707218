"""Slides and spreadsheets written with the formats' own writer libraries (python-pptx, openpyxl), English and
Chinese, for the loader, engine and bench tests (issue 37)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

# (name, office, phone) rows: a table longer than one chunk
STAFF = [(f"Person {i:03d}", f"Room {100 + i}", f"555-{i:04d}") for i in range(60)]


def write_pptx(path: Path) -> Path:
    """Three slides: a title and a bullet text box; a group with a text box, a table and speaker notes; Chinese."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[1])  # title and content
    first.shapes.title.text = "Harbour lighthouse restoration"
    first.placeholders[1].text = "The lighthouse lens was polished by volunteers in April."
    second = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    second.shapes.title.text = "Budget"
    group = second.shapes.add_group_shape()
    box = group.shapes.add_textbox(Inches(1), Inches(1.2), Inches(6), Inches(0.5))
    box.text_frame.text = "Figures approved by the harbour board."
    table = second.shapes.add_table(4, 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, (item, cost) in enumerate([("Item", "Cost"), ("Copper roof", "12,400 EUR"), ("Lens cleaning", "3,150 EUR"),
                                      ("Paint", "980 EUR")]):
        table.cell(r, 0).text, table.cell(r, 1).text = item, cost
    second.notes_slide.notes_text_frame.text = "Remind the board that the copper roof quote expires in June."
    third = deck.slides.add_slide(deck.slide_layouts[1])
    third.shapes.title.text = "灯塔开放日"
    third.placeholders[1].text = "灯塔将于十月的第一个星期六向公众开放，参观者可以登上塔顶。"
    deck.save(path)
    return path


def write_xlsx(path: Path, staff: list[tuple[str, str, str]] = STAFF) -> Path:
    """Two sheets: "Staff" (name, office, phone; longer than a chunk) and "库存" (Chinese, numbers and dates)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Staff"
    sheet.append(["Name", "Office", "Phone"])
    for row in staff:
        sheet.append(list(row))
    stock = book.create_sheet("库存")
    stock.append(["产品", "数量", "单价", "入库日期"])
    stock.append(["青花瓷茶杯", 48, 12.5, dt.date(2024, 3, 1)])
    stock.append(["紫砂茶壶", 7, 268.0, dt.date(2024, 5, 20)])
    book.save(path)
    return path
