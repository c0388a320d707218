"""Issue 49 item 8: read what can be read. A shape, slide, table, sheet, chapter, message or page a reader cannot
read is left out, the rest of the file is indexed, and the file's note names what was left out (English and
Chinese). One file per reader family, each a real file with one broken part among good ones:

- .pptx: a picture in the title's placeholder (Apache POI's 2411-Performance_Up.pptx: python-pptx's `text_frame`
  raised AttributeError and the whole deck failed as damaged), a frame that claims a table and holds none, and a
  slide id whose relationship is the slide master, not a slide;
- .docx: a table whose first row continues a vertical merge from above (python-docx: "no tr above topmost tr");
- .xlsx: a sheet whose cell names a shared string the table lacks (calamine: "Cell string index not found");
- .epub: a chapter nested 100,000 elements deep;
- .mbox: a message of 10,000 MIME parts without a Content-Type header;
- .pdf: a page whose scanned image claims 20,000 x 20,000 pixels.
"""

from __future__ import annotations

import copy
import io
import zipfile
import zlib
from pathlib import Path

import pytest

from desktop_rag.engine.ingest.loaders import load
from tests.support.pdf_build import PAGE_H, PAGE_W, _stream, write_pdf

_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def _pptx(path: Path) -> Path:
    from PIL import Image
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    layout = deck.slide_layouts[5]  # title only
    first = deck.slides.add_slide(layout)
    first.shapes.title.text = "Harbour lighthouse restoration"
    first.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.text = "Volunteers polished the lens."
    odd = deck.slides.add_slide(layout)
    picture = io.BytesIO()
    Image.new("RGB", (40, 40), "navy").save(picture, "PNG")
    pic = odd.shapes.add_picture(io.BytesIO(picture.getvalue()), Inches(1), Inches(1))
    title = odd.shapes.title._element  # the picture takes the title's placeholder, as in 2411-Performance_Up.pptx
    pic._element.find(f".//{_P}nvPr").append(copy.deepcopy(title.find(f".//{_P}ph")))
    title.getparent().remove(title)
    odd.shapes.add_textbox(Inches(1), Inches(3), Inches(6), Inches(1)).text_frame.text = "Ferry timetable for the isle."
    frame = odd.shapes.add_table(2, 2, Inches(1), Inches(4), Inches(4), Inches(1))._element
    table = frame.find(f".//{_A}tbl")
    table.getparent().remove(table)  # a frame that claims a table and holds none
    last = deck.slides.add_slide(layout)
    last.shapes.title.text = "Budget"
    last.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.text = "It cost twelve thousand euros."
    ids = deck.slides._sldIdLst
    master = deck.part.relate_to(deck.slide_masters[0].part,
                                 "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster")
    bogus = copy.deepcopy(ids[0])
    bogus.set("id", "999")
    bogus.set("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id", master)
    ids.insert(2, bogus)  # slide 3 is the slide master
    deck.save(str(path))
    return path


def _docx(path: Path) -> Path:
    import docx
    from docx.oxml.ns import qn

    document = docx.Document()
    document.add_heading("Survey report", level=1)
    document.add_paragraph("The survey boat counted forty two fishing boats.")
    good = document.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Port", (0, 1): "Boats", (1, 0): "Ningbo", (1, 1): "42"}.items():
        good.cell(r, c).text = text
    odd = document.add_table(rows=2, cols=2)
    odd.cell(1, 1).text = "lost"
    properties = odd._tbl.tr_lst[0].tc_lst[0].get_or_add_tcPr()
    properties.append(properties.makeelement(qn("w:vMerge"), {qn("w:val"): "continue"}))
    document.add_paragraph("The lighthouse keeper signed the report.")
    document.save(str(path))
    return path


def _xlsx(path: Path) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Boats"
    book.active.append(["Port", "Boats"])
    book.active.append(["Ningbo", 42])
    book.create_sheet("Broken").append(["a", "b"])
    tides = book.create_sheet("Tides")
    tides.append(["Day", "High water"])
    tides.append(["Monday", "06:40"])
    made = path.with_suffix(".made.xlsx")
    book.save(str(made))
    broken = (b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
              b'<c r="A1" t="s"><v>999</v></c></row></sheetData></worksheet>')
    with zipfile.ZipFile(made) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            target.writestr(info, broken if info.filename == "xl/worksheets/sheet2.xml" else source.read(info.filename))
    return path


def _epub(path: Path) -> Path:
    from tests.support.doc_files import EPUB_CHAPTERS
    from tests.support.epub_files import write_epub

    deep = EPUB_CHAPTERS[1][2].replace("<body>", "<body>" + "<div>" * 100_000).replace(
        "</body>", "</div>" * 100_000 + "</body>")
    chapters = [EPUB_CHAPTERS[0], ("deep.xhtml", "", deep), *EPUB_CHAPTERS[1:]]
    # stored: the deep chapter alone would trip the zip guard's ratio
    return write_epub(path, chapters, compression=zipfile.ZIP_STORED)


def _mbox(path: Path) -> Path:
    parts = "".join(f"--b\n\npart {i}\n" for i in range(10_000))  # no Content-Type: they were not counted
    crafted = f"Subject: parts\nContent-Type: multipart/mixed; boundary=b\n\n{parts}--b--\n"
    path.write_text("From a@b Mon Jan 1 00:00:00 2024\nSubject: Harbour survey\n\nThe boat leaves at dawn.\n\n"
                    f"From c@d Mon Jan 1 00:00:00 2024\n{crafted}\n"
                    "From e@f Mon Jan 1 00:00:00 2024\nSubject: Lighthouse\n\nThe keeper logged the storm.\n",
                    encoding="utf-8")
    return path


def _pdf(path: Path) -> Path:
    def page(contents: int, resources: str) -> str:
        return (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] /Contents {contents} 0 R "
                f"/Resources {resources} >>")

    def text(words: str) -> bytes:
        return _stream(f"BT /F1 12 Tf 56 760 Td ({words}) Tj ET".encode())

    font = "<< /Font << /F1 9 0 R >> >>"
    bomb = _stream(zlib.compress(b"\xff" * 100), " /Type /XObject /Subtype /Image /Width 20000 /Height 20000 "
                   "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", compress=False)
    path.write_bytes(write_pdf([
        "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
        page(6, font), page(7, "<< /XObject << /Im1 10 0 R >> >>"), page(8, font),
        text("The first page talks about the harbour survey of the northern coast."),
        _stream(b"q 500 0 0 700 50 50 cm /Im1 Do Q"),
        text("The third page talks about the lighthouse keeper and her logbook."),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>", bomb]))
    return path


# family: (writer, the words that must be read, the note, its Chinese)
FAMILIES = {
    "pptx": (_pptx, ["Volunteers polished the lens", "Ferry timetable", "twelve thousand euros"],
             ["Slide(s) 3 could not be read and were left out",
              "A shape on slide(s) 2 could not be read and was left out"],
             ["第 3 张幻灯片无法读取，已略去", "第 2 张幻灯片上有形状无法读取，已略去"]),
    "docx": (_docx, ["forty two fishing boats", "| Port | Boats |", "keeper signed the report"],
             ["Table(s) 2 could not be read and were left out"], ["第 2 个表格无法读取，已略去"]),
    "xlsx": (_xlsx, ["| Ningbo | 42 |", "| Monday | 06:40 |"],
             ["Sheet(s) Broken could not be read and were left out"], ["工作表 Broken 无法读取，已略去"]),
    "epub": (_epub, ["storm of 1881", "乌镇的东栅"],
             ["Chapter(s) OEBPS/text/deep.xhtml could not be read and were left out"],
             ["章节 OEBPS/text/deep.xhtml 无法读取，已略去"]),
    "mbox": (_mbox, ["The boat leaves at dawn", "The keeper logged the storm"],
             ["Message(s) 2 could not be read and were left out"], ["第 2 封邮件无法读取，已略去"]),
    "pdf": (_pdf, ["harbour survey of the northern coast", "lighthouse keeper and her logbook"],
            ["Page(s) 2 could not be read and were left out"], ["第 2 页无法读取，已略去"]),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_one_broken_part_is_left_out_and_named(tmp_path: Path, family: str) -> None:
    write, words, notes, chinese = FAMILIES[family]
    doc = load(write(tmp_path / f"odd.{family}"), max_bytes=0)
    text = "\n".join(s.text for s in doc.sections)
    assert all(w in text for w in words), (words, text[:500])
    assert [str(n) for n in doc.notes] == notes
    assert [n.text("zh") for n in doc.notes] == chinese
