"""Issue 49 item 9: an e-mail's attachments within their bounds.

- A reading killed on its time limit leaves no attachment bytes in the temporary folder (the parser child's
  scratch folder is removed by the parent; the attachment used to stay in /tmp/desktop-rag-mail-*).
- Each attachment has its own time budget: one slow attachment is left out with a note, and the message (a whole
  mailbox) is kept; its seconds are added to the reader's limit, so many attachments do not fail the file.
- MIME parts without a Content-Type header count towards the part limit.
- An attachment name over 200 characters keeps its suffix (it used to lose it and vanish); bidi and invisible
  characters are removed from names (they are shown in the window's library).
- A zip-bomb attachment is dropped with a note giving the reason.
The slow and hanging readers are test loaders put in place in the parser child by its init hook.
"""

from __future__ import annotations

import os
import signal
import tempfile
import time
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders.email import load_eml
from desktop_rag.engine.ingest.parsing import SafeParser

MARKER = b"ATTACHMENT-BYTES-7f3a9c"
pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="attachment budgets need SIGALRM (POSIX)")


def _slow(path: Path):
    time.sleep(60)  # interrupted by the attachment's budget


def _hanging(path: Path):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # deaf to its budget: only the kill ends it
    time.sleep(60)


def install_slow_loader() -> None:
    """Runs in the parser child: .rtf attachments take a minute; a budget of one second each."""
    from desktop_rag.engine.ingest import loaders
    from desktop_rag.engine.ingest.loaders import email

    loaders.register(".rtf", _slow)
    email.ATTACHMENT_SECONDS = 1.0


def install_hanging_loader() -> None:
    from desktop_rag.engine.ingest import loaders
    from desktop_rag.engine.ingest.loaders import email

    loaders.register(".rtf", _hanging)
    email.ATTACHMENT_SECONDS = 1.0


def _message(subject: str, *attachments: tuple[str, bytes]) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"], msg["From"] = subject, "ann@example.org"
    msg.set_content(f"{subject}: the body of the message.")
    for name, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg


def _leftovers() -> list[Path]:
    """Files under the temporary folder holding the attachment's bytes."""
    found = []
    for path in Path(tempfile.gettempdir()).rglob("*"):
        try:
            if path.is_file() and MARKER in path.read_bytes():
                found.append(path)
        except OSError:
            continue
    return found


def test_a_killed_reading_leaves_no_attachment_bytes_behind(tmp_path: Path, monkeypatch) -> None:
    # a temporary folder of the test's own (the parser's scratch folders are made in it): the machine's /tmp held
    # gigabytes of other runs' folders (PostgreSQL's among them), all read in search of the marker (16 s)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    path = tmp_path / "m.eml"
    path.write_bytes(_message("Hanging", ("notes.rtf", b"{\\rtf1 " + MARKER + b"}")).as_bytes())
    hook = "tests.security.test_mail_attachment_bounds:install_hanging_loader"
    with SafeParser(timeout_s=2, init_hook=hook) as parser:
        with pytest.raises(LoadError, match="took longer than"):
            parser.parse(path)
        assert _leftovers() == []
        plain = tmp_path / "plain.eml"  # the next file gets a fresh child
        plain.write_bytes(_message("Plain").as_bytes())
        assert "Plain: the body" in parser.parse(plain).sections[0].text


def test_a_slow_attachment_is_left_out_and_the_message_kept(tmp_path: Path) -> None:
    path = tmp_path / "m.eml"
    path.write_bytes(_message("Survey", ("slow.rtf", b"{\\rtf1 slow}"),
                              ("tides.txt", "High water at 06:40 on Monday.".encode())).as_bytes())
    box = tmp_path / "inbox.mbox"  # three messages whose slow attachments together pass the reader's own limit
    box.write_bytes(b"".join(b"From a@b Mon Jan 1 00:00:00 2024\n" + _message(f"Day {i}", ("slow.rtf", b"{\\rtf1 x}"))
                             .as_bytes().replace(b"\r\n", b"\n") + b"\n" for i in range(3)))
    hook = "tests.security.test_mail_attachment_bounds:install_slow_loader"
    with SafeParser(timeout_s=2, init_hook=hook) as parser:
        doc = parser.parse(path)
        assert [a.part for a in doc.attachments] == ["2/tides.txt"]
        assert [str(n) for n in doc.notes] == ["1 attachment was not read: reading one took longer than the "
                                               "limit of 1 seconds an attachment: slow.rtf"]
        mailbox = parser.parse(box)
        assert [s.page for s in mailbox.sections] == [1, 2, 3]
        assert str(mailbox.notes[0]).startswith("3 attachments were not read: reading one took longer")


def test_parts_without_a_content_type_count(tmp_path: Path) -> None:
    parts = "".join(f"--b\n\npart {i}\n" for i in range(5_000))
    path = tmp_path / "parts.eml"
    path.write_text(f"Subject: parts\nContent-Type: multipart/mixed; boundary=b\n\n{parts}--b--\n", encoding="utf-8")
    with pytest.raises(LoadError, match="more than 500 parts"):
        load_eml(path)


def test_long_names_keep_their_suffix_and_names_lose_bidi_controls(tmp_path: Path) -> None:
    long_name = "Quarterly report of the harbour authority " * 6 + ".txt"  # 258 characters
    spoofed = "invoice\u202etxt.exe\u200b.txt"  # shown as "invoiceexe.txt..." with the override
    path = tmp_path / "names.eml"
    path.write_bytes(_message("Names", (long_name, b"The long one is read."),
                              (spoofed, b"The spoofed one is read.")).as_bytes())
    doc = load_eml(path)  # an attachment's name is the last part of its library path, shown in the window
    names = [a.part.split("/", 1)[1] for a in doc.attachments]
    assert names[1] == "invoicetxt.exe.txt" and "invoicetxt.exe.txt" in doc.sections[0].text
    assert names[0].endswith(".txt") and len(names[0]) == 200 and names[0].startswith("Quarterly report")
    assert not any(ch in "".join(names) + doc.sections[0].text for ch in "\u202e\u200b")


def test_a_zip_bomb_attachment_is_dropped_with_a_note(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml", b"\0" * (60 << 20))
    path = tmp_path / "m.eml"
    path.write_bytes(_message("Bomb", ("bomb.docx", bomb.read_bytes())).as_bytes())
    doc = load_eml(path)
    assert doc.attachments == () and "Bomb: the body" in doc.sections[0].text
    assert len(doc.notes) == 1 and str(doc.notes[0]).startswith("The attachment bomb.docx was not read: This .docx "
                                                                "looks like a zip bomb")
    assert doc.notes[0].text("zh").startswith("附件 bomb.docx 未被读取：此 .docx 看起来像 zip 炸弹")
    assert os.path.getsize(path) < 1 << 20
