"""Web pages, e-books, e-mail, OpenDocument and RTF files for the index and viewer tests (issue 37), each holding
an English and a Chinese passage on its own topic. Written with the formats' own writers where one exists here:
the standard library's `email` and `mailbox` (.eml, .mbox), odfpy (.odt), python-docx (an e-mail's attachment; a
PDF one by the tests' PDF writer), the EPUB tests' writer (tests/support/epub_files.py, .epub);
a web page or an RTF file is text, so those are written as such."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone
from pathlib import Path

from tests.support.epub_files import write_epub as write_book, xhtml

# rows of the web page's table (station, departure, platform): longer than one chunk, so the header must repeat
TRAINS = [(f"Halt {i:02d}", f"{6 + i // 4:02d}:{(i * 15) % 60:02d}", f"{i % 9 + 1}") for i in range(40)]
TRAINS[27] = ("Zermatt", "13:45", "7")


def write_html(path: Path) -> Path:
    """A saved page in GB2312 (declared by <meta>): navigation, a timetable table with a header, Chinese prose."""
    rows = "".join(f"<tr><td>{s}</td><td>{d}</td><td>{p}</td></tr>" for s, d, p in TRAINS)
    markup = f"""<!DOCTYPE html><html><head><meta charset="gb2312"><title>Alpine railway guide</title>
<script>document.write("never run")</script></head><body>
<nav><a href="/">Home</a> <a href="/tickets">Tickets</a> <a href="/about">About us</a></nav>
<main><h1>Alpine railway guide</h1>
<p>The glacier express crosses two hundred and ninety one bridges between Zermatt and St. Moritz.</p>
<h2>Timetable</h2>
<table><thead><tr><th>Station</th><th>Departure</th><th>Platform</th></tr></thead><tbody>{rows}</tbody></table>
<h2>龙井茶园</h2>
<p>西湖龙井的明前茶在清明节之前采摘，芽叶细嫩，每年三月下旬开始采茶。</p></main>
<footer>Copyright 2024 Railway Fans. All rights reserved.</footer></body></html>"""
    path.write_bytes(markup.encode("gb2312"))
    return path


EPUB_CHAPTERS = [
    ("cover.xhtml", "", xhtml("Cover", '<img src="../images/cover.png" alt=""/>')),
    ("one.xhtml", "The Keeper of Skerry Light",
     xhtml("One", "<h1>The Keeper of Skerry Light</h1><p>Every evening the keeper wound the clockwork that turned "
                  "the great lens, and in the storm of 1881 she kept the lamp burning for nine nights alone.</p>")),
    ("two.xhtml", "江南水乡",
     xhtml("Two", "<h1>江南水乡</h1><p>乌镇的东栅保留着明清时期的老街，游客可以乘坐乌篷船沿着河道游览。</p>"
                  "<p>镇上的蓝印花布作坊仍然用传统方法染布。</p>")),
]


def write_epub(path: Path) -> Path:
    """An EPUB 3 book (tests/support/epub_files.py): a cover picture page, an English chapter and a Chinese one."""
    return write_book(path, EPUB_CHAPTERS)


def _docx_bytes() -> bytes:
    """A Chinese Word document (python-docx), as an attachment's bytes."""
    import io

    from docx import Document

    document = Document()
    document.add_heading("会议纪要", level=1)
    document.add_paragraph("新办公室的搬迁日期定为十一月十八日，周末由搬家公司负责打包。")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _message(subject: str, sender: str, text: str, html: str = "", day: int = 1) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"], msg["From"], msg["To"] = subject, sender, "team@example.org"
    msg["Date"] = format_datetime(datetime(2024, 5, day, 9, 30, tzinfo=timezone.utc))
    msg.set_content(text)
    if html:
        msg.add_alternative(html, subtype="html")
    return msg


SHUTTLE_PAGES = [["Airport transfers", "Taxis wait outside the arrivals hall around the clock."],
                 ["Hotel shuttle", "The hotel shuttle leaves from gate B7 every forty minutes."],
                 ["Parking", "Long-stay parking is in the north garage."]]


def write_eml(path: Path) -> Path:
    """One message: an English plain and HTML body; a Chinese Word attachment and an English three-page PDF, each
    indexed as a document of its own."""
    from tests.data.make_fixtures import build_pdf

    msg = _message("Quarterly budget review", "Ada Lovelace <ada@example.org>",
                   "Hello all,\n\nThe finance committee moved the quarterly budget review to Thursday at 3 pm in "
                   "meeting room Kestrel.\n\nAda",
                   "<p>Hello all,</p><p>The finance committee moved the quarterly budget review to Thursday at "
                   "3 pm in meeting room <b>Kestrel</b>.</p><p>Ada</p>")
    msg.add_attachment(_docx_bytes(), maintype="application",
                       subtype="vnd.openxmlformats-officedocument.wordprocessingml.document", filename="纪要.docx")
    msg.add_attachment(build_pdf(SHUTTLE_PAGES), maintype="application", subtype="pdf", filename="shuttle.pdf")
    path.write_bytes(msg.as_bytes())
    return path


def write_mbox(path: Path) -> Path:
    """A mailbox of three messages (written by `mailbox.mbox`); the third in Chinese with an encoded subject."""
    box = mailbox.mbox(str(path), create=True)
    try:
        box.lock()
        box.add(_message("Bicycle shed", "Bob <bob@example.org>",
                         "The bicycle shed behind building C is closed for repairs this week.", day=2))
        box.add(_message("Choir rehearsal", "Carol <carol@example.org>",
                         "From now on the choir rehearses on Tuesday evenings in the old library; bring the "
                         "Brahms scores.", day=3))
        box.add(_message("年会安排", "王芳 <wang@example.org>",
                         "公司年会定于一月二十日在杭州西溪宾馆举行，晚宴六点开始。", day=4))
        box.flush()
    finally:
        box.unlock()
        box.close()
    return path


# rows of the OpenDocument table (instrument, owner, serial number): longer than one chunk
INSTRUMENTS = [(f"Instrument {i:02d}", f"Lab {chr(65 + i % 6)}", f"SN-{4000 + i * 7}") for i in range(30)]
INSTRUMENTS[21] = ("Spectrometer", "Lab Orion", "SN-9912")


def write_odt(path: Path) -> Path:
    """A text document written by odfpy: headings, paragraphs, a table with a header row, a Chinese part."""
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, P

    doc = OpenDocumentText()
    doc.text.addElement(H(outlinelevel=1, text="Laboratory handbook"))
    doc.text.addElement(P(text="Safety goggles must be worn at all times in the chemistry lab, even when only "
                               "observing an experiment."))
    doc.text.addElement(H(outlinelevel=2, text="Equipment register"))
    table = Table(name="Register")
    table.addElement(TableColumn(numbercolumnsrepeated=3))
    for row in [("Instrument", "Owner", "Serial number"), *INSTRUMENTS]:
        line = TableRow()
        for value in row:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=value))
            line.addElement(cell)
        table.addElement(line)
    doc.text.addElement(table)
    doc.text.addElement(H(outlinelevel=2, text="废液处理"))
    doc.text.addElement(P(text="含重金属的废液必须倒入红色标签的收集桶，每周五由环保公司统一回收。"))
    doc.save(str(path))
    return path


def _rtf_escape(text: str) -> str:
    """Chinese as GBK bytes (\\'hh, the way Word writes with \\ansicpg936), other non-ASCII as \\uN."""
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch if ch not in "\\{}" else "\\" + ch)
        else:
            try:
                out.append("".join(f"\\'{b:02x}" for b in ch.encode("gbk")))
            except UnicodeEncodeError:
                out.append(f"\\u{ord(ch)}?")
    return "".join(out)


# rows of the RTF's table (exhibit, room, floor): longer than one chunk
EXHIBITS = [(f"Exhibit {i:02d}", f"Room {200 + i}", f"Floor {i % 4 + 1}") for i in range(30)]
EXHIBITS[17] = ("Bronze ding cauldron", "Room 317", "Floor 3")


def _rtf_row(cells: tuple[str, ...]) -> str:
    """A table row as Word writes it: the row's cell boundaries, then each cell's text ended by \\cell."""
    bounds = "".join(rf"\cellx{3000 * (i + 1)}" for i in range(len(cells)))
    return (rf"\trowd\trgaph108{bounds}\pard\intbl " + "".join(_rtf_escape(c) + r"\cell " for c in cells)
            + r"\row" + "\n")


def write_rtf(path: Path) -> Path:
    """An RTF file as Word writes it for a Chinese system: code page 936, a font table, two paragraphs and a
    table with a header row."""
    english = ("The museum's night tours start at eight o'clock on Fridays; tickets cost twelve euros and "
               "include the rooftop observatory.")
    chinese = "博物馆的青铜器展厅每周一闭馆，讲解员每天上午十点提供免费讲解。"
    table = "".join(_rtf_row(row) for row in [("Exhibit", "Room", "Floor"), *EXHIBITS])
    body = (r"{\rtf1\ansi\ansicpg936\deff0{\fonttbl{\f0\fnil\fcharset134 SimSun;}{\f1\fswiss Arial;}}"
            r"{\*\generator Test writer;}\viewkind4\uc1\pard\f1\fs24 " + _rtf_escape(english) + r"\par"
            "\n" + r"\pard\f0 " + _rtf_escape(chinese) + r"\par" + "\n" + table + r"\pard\par" + "\n}")
    path.write_bytes(body.encode("ascii"))
    return path


WRITERS = {"html": write_html, "epub": write_epub, "eml": write_eml, "mbox": write_mbox, "odt": write_odt,
           "rtf": write_rtf}


def write_all(folder: Path, stem: str = "sample") -> list[Path]:
    """One file of each format in `folder`."""
    return [write(folder / f"{stem}.{suffix}") for suffix, write in WRITERS.items()]


def write_slow_rtf(path: Path, mb: int) -> Path:
    """An RTF of `mb` MB of nested groups and paragraphs: the RTF reader takes about 0.35 s and 55 MB of memory per
    MB of it (90 MB: 34 s and 5 GB in the app's process, measured)."""
    chunk = "{\\b bold {\\i italic {\\ul under}}} plain text here \\par\n"
    with path.open("w", encoding="ascii") as out:
        out.write("{\\rtf1\\ansi ")
        out.write(chunk * ((mb << 20) // len(chunk)))
        out.write("}")
    return path
