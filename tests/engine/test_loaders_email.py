"""E-mail: header and body, HTML bodies, attachments under "attachment: NAME", mbox message numbers."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from email.mime.text import MIMEText
from email.utils import formataddr
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import email as mail
from desktop_rag.engine.ingest.loaders.email import load_eml, load_mbox

GOOD = Path(__file__).resolve().parents[1] / "data" / "good"


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


def test_attachments_become_sections_of_their_own(tmp_path: Path) -> None:
    import docx

    word = tmp_path / "w.docx"
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
    msg.add_attachment(_message("Forwarded: supplier quote", "The quote is 4,200 euros."), filename="")
    doc = load_eml(_write(tmp_path / "att.eml", msg))
    first = doc.sections[0].text
    assert "Attachments: notes.txt, agenda.html, minutes.docx, report.pdf, logo.png, " in first
    by_heading: dict[tuple[str, ...], str] = {}
    for s in doc.sections:
        by_heading[s.heading_path[:2]] = by_heading.get(s.heading_path[:2], "") + s.text + "\n"
    assert by_heading[("Files for the board", "attachment: notes.txt")] == "Shipping notes: pallets arrive on Monday.\n"
    assert "第一项：预算审议。" in by_heading[("Files for the board", "attachment: agenda.html")]
    assert "warehouse in Ningbo" in by_heading[("Files for the board", "attachment: minutes.docx")]
    assert "Alpha section" in by_heading[("Files for the board", "attachment: report.pdf")]
    pdf_pages = [s.heading_path[2] for s in doc.sections if s.heading_path[1:2] == ("attachment: report.pdf",)]
    assert pdf_pages == ["page 1", "page 2", "page 3"]
    forwarded = by_heading[("Files for the board", "attachment: Forwarded: supplier quote.eml")]
    assert "The quote is 4,200 euros." in forwarded
    assert not any("logo.png" in s.heading_path[-1] for s in doc.sections)  # pictures are listed, not read


def test_attachment_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mail, "MAX_ATTACHMENTS", 2)
    msg = _message("Many", "Body text.")
    for i in range(5):
        msg.add_attachment(f"attachment text {i}".encode(), maintype="text", subtype="plain", filename=f"a{i}.txt")
    doc = load_eml(_write(tmp_path / "many.eml", msg))
    assert [s.heading_path[-1] for s in doc.sections[1:]] == ["attachment: a0.txt", "attachment: a1.txt"]
    monkeypatch.setattr(mail, "MAX_ATTACHMENT_BYTES", 10)
    doc = load_eml(_write(tmp_path / "many.eml", msg))
    assert len(doc.sections) == 1 and "a4.txt" in doc.sections[0].text  # too large: only the name is kept


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
    text = "\n".join(s.text for s in doc.sections)
    assert "Body 4." in text and "Body 1." in text and "Body 0." not in text  # three levels below the top
    assert doc.sections[1].heading_path == ("Level 4", "attachment: fwd.eml")


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
    text = "\n".join(s.text for s in load_eml(path).sections)
    assert "Body survives." in text and "attached words" in text
