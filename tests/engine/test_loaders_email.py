"""E-mail: header and body, HTML bodies, attachments as documents of their own (read again by part), mbox numbers."""

from __future__ import annotations

import hashlib
import mailbox
from email.message import EmailMessage
from email.mime.text import MIMEText
from email.utils import formataddr
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import email as mail
from desktop_rag.engine.ingest.loaders.email import load_eml, load_mbox
from tests.support import DATA

GOOD = DATA / "good"


def _message(subject: str, body: str, sender: str = "Ann Lee <ann@example.org>") -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = subject
    msg["From"] = sender
    msg["To"] = "team@example.org"
    msg["Date"] = "Tue, 01 Dec 2026 09:30:00 +0000"
    msg.set_content(body)
    return msg


def _write(path: Path, msg: EmailMessage) -> Path:
    path.write_bytes(bytes(msg))
    return path


def test_plain_message_header_and_body(tmp_path: Path) -> None:
    doc = load_eml(_write(tmp_path / "m.eml", _message("Budget review", "The budget review is on Friday.")))
    assert len(doc.sections) == 1
    section = doc.sections[0]
    assert section.heading_path == ("Budget review",) and section.page is None
    assert section.text.splitlines()[:4] == ["Subject: Budget review", "From: Ann Lee <ann@example.org>",
                                             "To: team@example.org", "Date: Tue, 01 Dec 2026 09:30:00 +0000"]
    assert section.text.endswith("The budget review is on Friday.")


def test_chinese_subject_and_gb2312_body(tmp_path: Path) -> None:
    msg = MIMEText("下周一上午十点在三楼会议室开会，请准时参加。", "plain", "gb2312")
    msg["Subject"] = "会议通知"  # encoded as RFC 2047 by the email package
    msg["From"] = formataddr(("王伟", "wang@example.cn"), charset="utf-8")
    path = tmp_path / "zh.eml"
    path.write_bytes(msg.as_bytes())
    assert b"=?" in path.read_bytes()  # the subject really is encoded in the file
    section = load_eml(path).sections[0]
    assert section.heading_path == ("会议通知",)
    assert "From: 王伟 <wang@example.cn>" in section.text
    assert "三楼会议室开会" in section.text


def test_html_only_body_goes_through_the_html_reader(tmp_path: Path) -> None:
    msg = _message("Newsletter", "x")
    msg.set_content("<html><body><nav><a href='/'>Home</a></nav><h2>Launch</h2><p>The rover launches "
                    "in March.</p><script>track()</script></body></html>", subtype="html")
    doc = load_eml(_write(tmp_path / "h.eml", msg))
    assert doc.sections[0].text.startswith("Subject: Newsletter")
    assert doc.sections[1].heading_path == ("Newsletter", "Launch")
    assert doc.sections[1].text == "Launch\n\nThe rover launches in March."


def test_alternative_prefers_plain(tmp_path: Path) -> None:
    msg = _message("Alt", "Plain version of the note.")
    msg.add_alternative("<p>HTML version of the note.</p>", subtype="html")
    text = "\n".join(s.text for s in load_eml(_write(tmp_path / "a.eml", msg)).sections)
    assert "Plain version" in text and "HTML version" not in text


def _board_message(tmp_path: Path) -> EmailMessage:
    import docx

    word = tmp_path / "minutes.docx"
    document = docx.Document()
    document.add_heading("Minutes", level=1)
    document.add_paragraph("The board approved the new warehouse in Ningbo.")
    document.save(str(word))
    msg = _message("Files for the board", "See the attached files.")
    msg.add_attachment("Shipping notes: pallets arrive on Monday.".encode(), maintype="text", subtype="plain",
                       filename="notes.txt")
    msg.add_attachment("<h1>Agenda</h1><p>第一项：预算审议。</p>".encode(), maintype="text", subtype="html",
                       filename="agenda.html")
    msg.add_attachment(word.read_bytes(), maintype="application",
                       subtype="vnd.openxmlformats-officedocument.wordprocessingml.document", filename="minutes.docx")
    msg.add_attachment((GOOD / "report.pdf").read_bytes(), maintype="application", subtype="pdf",
                       filename="report.pdf")
    msg.add_attachment(b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", filename="logo.png")
    forwarded = _message("Forwarded: supplier quote", "The quote is 4,200 euros.")
    forwarded.add_attachment("报价单：每箱 35 元。".encode(), maintype="text", subtype="plain", filename="报价.txt")
    msg.add_attachment(forwarded, filename="")
    return msg


def test_attachments_are_documents_of_their_own(tmp_path: Path) -> None:
    doc = load_eml(_write(tmp_path / "att.eml", _board_message(tmp_path)))
    assert len(doc.sections) == 1  # the message itself: header and body only
    first = doc.sections[0].text
    assert "Attachments: notes.txt, agenda.html, minutes.docx, report.pdf, logo.png, " in first
    assert "pallets" not in first
    by_part = {a.part: a for a in doc.attachments}
    assert list(by_part) == ["1/notes.txt", "2/agenda.html", "3/minutes.docx", "4/report.pdf",
                             "6/Forwarded: supplier quote.eml", "6/Forwarded: supplier quote.eml/1/报价.txt"]
    assert by_part["1/notes.txt"].document.sections[0].text == "Shipping notes: pallets arrive on Monday."
    assert "第一项：预算审议。" in by_part["2/agenda.html"].document.sections[0].text
    assert by_part["3/minutes.docx"].document.sections[0].heading_path == ("Minutes",)
    pdf = by_part["4/report.pdf"].document
    assert {s.page for s in pdf.sections} == {1, 2, 3} and "Alpha section" in pdf.sections[0].text  # its own pages
    quote = by_part["6/Forwarded: supplier quote.eml"].document
    assert quote.sections[0].heading_path == ("Forwarded: supplier quote",)
    assert "4,200 euros" in quote.sections[0].text and "Attachments: 报价.txt" in quote.sections[0].text
    assert by_part["6/Forwarded: supplier quote.eml/1/报价.txt"].document.sections[0].text == "报价单：每箱 35 元。"
    data = "Shipping notes: pallets arrive on Monday.".encode()
    assert by_part["1/notes.txt"].size == len(data)
    assert by_part["1/notes.txt"].sha256 == hashlib.sha256(data).hexdigest()


def test_an_attachment_is_read_again_by_its_part(tmp_path: Path) -> None:
    """The viewer reads one attachment again from the message: the same sections as when it was indexed."""
    path = _write(tmp_path / "att.eml", _board_message(tmp_path))
    for attached in load_eml(path).attachments:
        assert mail.attachment_document(path, attached.part).sections == attached.document.sections, attached.part
    with pytest.raises(LoadError, match="no longer holds the attachment"):
        mail.attachment_document(path, "1/other.txt")
    with pytest.raises(LoadError, match="no longer holds the attachment"):
        mail.attachment_document(path, "9/notes.txt")


def test_mbox_attachments_are_numbered_by_message(tmp_path: Path) -> None:
    path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(path))
    box.add(_message("First", "No attachment here."))
    second = _message("第二封", "附件是合同。")
    second.add_attachment("合同金额为八万元。".encode(), maintype="text", subtype="plain", filename="合同.txt")
    box.add(second)
    box.flush()
    box.close()
    doc = load_mbox(path)
    assert [a.part for a in doc.attachments] == ["2.1/合同.txt"]
    assert mail.attachment_document(path, "2.1/合同.txt").sections[0].text == "合同金额为八万元。"


def test_attachment_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mail, "MAX_ATTACHMENTS", 2)
    msg = _message("Many", "Body text.")
    for i in range(5):
        msg.add_attachment(f"attachment text {i}".encode(), maintype="text", subtype="plain", filename=f"a{i}.txt")
    doc = load_eml(_write(tmp_path / "many.eml", msg))
    assert [a.part for a in doc.attachments] == ["1/a0.txt", "2/a1.txt"]
    assert [str(note) for note in doc.notes] == [
        "3 attachments were not read: over the limit of 2 attachments a message: a2.txt, a3.txt, a4.txt"]
    monkeypatch.setattr(mail, "MAX_ATTACHMENT_BYTES", 10)
    doc = load_eml(_write(tmp_path / "many.eml", msg))
    assert not doc.attachments and "a4.txt" in doc.sections[0].text  # too large: only the name is kept
    assert str(doc.notes[1]) == "2 attachments were not read: larger than the limit of 0.0 MB an attachment: a0.txt, a1.txt"
    monkeypatch.setattr(mail, "MAX_ATTACHMENT_BYTES", 1 << 20)
    monkeypatch.setattr(mail, "MAX_ATTACHMENTS", 20)
    monkeypatch.setattr(mail, "MAX_ATTACHED", 3)  # per file
    doc = load_eml(_write(tmp_path / "many.eml", msg))
    assert len(doc.attachments) == 3  # issue 49: the note names the per-file limit, not the per-message one
    assert [str(note) for note in doc.notes] == [
        "2 attachments were not read: over the limit of 3 attachments a file: a3.txt, a4.txt"]


def test_mbox_pages_are_message_numbers(tmp_path: Path) -> None:
    path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(path))
    box.add(_message("First", "From the start, the plan was simple.\nFrom here on it is not."))
    box.add(_message("第二封", "项目进度良好。"))
    box.add(_message("Third", "Closing note."))
    box.flush()
    box.close()
    doc = load_mbox(path)
    assert [(s.page, s.heading_path) for s in doc.sections] == [(1, ("First",)), (2, ("第二封",)), (3, ("Third",))]
    assert "From here on it is not." in doc.sections[0].text  # the writer's ">From " escape undone
    assert "项目进度良好" in doc.sections[1].text


def test_mbox_skips_a_crafted_message_and_reads_the_others(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(mail, "MAX_PARTS", 3)
    crafted = _message("Crafted", "x")
    for i in range(6):
        crafted.add_attachment(b"x", maintype="text", subtype="plain", filename=f"{i}.txt")
    path = tmp_path / "box.mbox"
    box = mailbox.mbox(str(path))
    box.add(crafted)
    box.add(_message("Fine", "A normal message."))
    box.flush()
    box.close()
    doc = load_mbox(path)
    assert [(s.page, s.heading_path) for s in doc.sections] == [(2, ("Fine",))]


def test_not_mail(tmp_path: Path) -> None:
    path = tmp_path / "x.mbox"
    path.write_bytes(b"just some text\n")
    with pytest.raises(LoadError, match="Not an mbox"):
        load_mbox(path)
    empty = tmp_path / "e.eml"
    empty.write_bytes(b"\n")
    with pytest.raises(LoadError, match="empty"):
        load_eml(empty)


def test_eml_file_attachment_is_a_nested_message_within_the_nesting_bound(tmp_path: Path) -> None:
    inner = _message("Innermost", "Deep text.")
    for level in range(5):  # each message carries the previous one as an .eml file
        outer = _message(f"Level {level}", f"Body {level}.")
        outer.add_attachment(bytes(inner), maintype="application", subtype="octet-stream", filename="fwd.eml")
        inner = outer
    doc = load_eml(_write(tmp_path / "nest.eml", inner))
    assert [a.part for a in doc.attachments] == ["1/fwd.eml", "1/fwd.eml/1/fwd.eml", "1/fwd.eml/1/fwd.eml/1/fwd.eml"]
    texts = [a.document.sections[0].text for a in doc.attachments]
    assert "Body 3." in texts[0] and "Body 1." in texts[2]  # three levels below the top, no deeper
    assert doc.attachments[2].document.sections[0].heading_path == ("Level 1",)
    assert doc.notes and "fwd.eml" in str(doc.notes[0])  # the fourth level is over the bound, and said so


def test_load_email_dispatches_by_suffix(tmp_path: Path) -> None:
    msg = _message("One", "Single message.")
    eml = _write(tmp_path / "one.EML", msg)
    assert mail.load_email(eml).sections[0].page is None
    box = tmp_path / "box.mbox"
    box.write_bytes(b"From a@b Sat Dec  5 10:00:00 2026\n" + bytes(msg) + b"\n")
    assert mail.load_email(box).sections[0].page == 1


def test_malformed_headers_do_not_cost_the_message(tmp_path: Path) -> None:
    raw = (b"Subject: =?utf-8?B?broken base64?=\r\nFrom: <<<@@@>>>\r\nDate: not a date\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\n"
           b"Body survives.\r\n--B\r\nContent-Type: text/plain; name*=bogus''%%%\r\n"
           b"Content-Disposition: attachment; filename*=utf-8''%E4%BD%A0.txt\r\n\r\nattached words\r\n--B--\r\n")
    path = tmp_path / "bad.eml"
    path.write_bytes(raw)
    doc = load_eml(path)
    assert "Body survives." in doc.sections[0].text
    assert [a.document.sections[0].text for a in doc.attachments] == ["attached words"]


def _scan_png(text: str, chinese: bool) -> bytes:
    import io

    from tests.support.scans import render_page

    out = io.BytesIO()
    render_page((text,), chinese, size_pt=14, page=(1240, 600)).save(out, format="PNG")
    return out.getvalue()


def _icon_png() -> bytes:
    import io

    from PIL import Image, ImageDraw

    image = Image.new("L", (400, 120), 255)
    ImageDraw.Draw(image).text((10, 40), "ACME Corporation", fill=0)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("chinese,text,words", [
    (False, "The warranty card must be returned within thirty days.", "warranty card"),
    (True, "请在三十天内寄回保修卡。", "保修卡"),
])
def test_an_attached_scan_is_read_by_text_recognition(tmp_path: Path, chinese: bool, text: str, words: str) -> None:
    """A picture attached as a file is a scan or a photo of a page: recognised, a document of its own. An inline
    logo (Content-ID) or an icon is not read, and nothing is recognised with OCR off."""
    from desktop_rag.engine.ingest.loaders import LoadContext

    scan = _scan_png(text, chinese)
    msg = _message("Scanned card", "The scan is attached.")
    msg.add_attachment(scan, maintype="image", subtype="png", filename="scan.png")
    msg.add_attachment(scan, maintype="image", subtype="png", filename="logo.png", disposition="inline", cid="<logo>")
    msg.add_attachment(_icon_png(), maintype="image", subtype="png", filename="icon.png")
    path = _write(tmp_path / "scan.eml", msg)
    doc = load_eml(path, LoadContext(ocr=True))
    assert [a.part for a in doc.attachments] == ["1/scan.png"]
    section = doc.attachments[0].document.sections[0]
    assert section.ocr and words in section.text.replace(" ", "" if chinese else " ")
    assert mail.attachment_document(path, "1/scan.png").sections == doc.attachments[0].document.sections
    assert load_eml(path, LoadContext(ocr=False)).attachments == ()


def test_pictures_read_per_file_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_rag.engine.ingest.loaders import LoadContext

    monkeypatch.setattr(mail, "MAX_PICTURES", 1)
    scan = _scan_png("Page one of the contract.", False)
    msg = _message("Two scans", "Both pages attached.")
    for name in ("p1.png", "p2.png"):
        msg.add_attachment(scan, maintype="image", subtype="png", filename=name)
    doc = load_eml(_write(tmp_path / "two.eml", msg), LoadContext(ocr=True))
    assert [a.part for a in doc.attachments] == ["1/p1.png"] and "p2.png" in str(doc.notes[0])


def test_an_html_body_table_is_cut_in_row_groups_of_the_chunk_size(tmp_path: Path) -> None:
    from desktop_rag.engine.ingest.loaders import LoadContext

    rows = "".join(f"<tr><td>Berth {i}</td><td>{i * 7} m</td></tr>" for i in range(40))
    msg = _message("Berths", "x")
    msg.set_content(f"<table><tr><th>Berth</th><th>Depth</th></tr>{rows}</table>", subtype="html")
    path = _write(tmp_path / "t.eml", msg)
    small = [s for s in load_eml(path, LoadContext(table_chars=200)).sections if "| --- |" in s.text]
    large = [s for s in load_eml(path, LoadContext(table_chars=4000)).sections if "| --- |" in s.text]
    assert len(large) == 1 and len(small) > 3 and all(s.text.startswith("| Berth | Depth |") for s in small)
