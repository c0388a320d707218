"""Crafted web pages, e-books, OpenDocument, RTF and e-mail: a clear LoadError or a bounded read, never a hang,
a crash or an expanded entity (issue 37)."""

from __future__ import annotations

import time
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders.email import load_eml, load_mbox
from desktop_rag.engine.ingest.loaders.epub import load_epub
from desktop_rag.engine.ingest.loaders.html import load_html
from desktop_rag.engine.ingest.loaders.odt import load_odt
from desktop_rag.engine.ingest.loaders.rtf import load_rtf
from tests.support.epub_files import CHAPTERS, CONTAINER, write_epub, xhtml

LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">'
                    for i in range(1, 10))
          + "]>")


class _Clock:
    def __init__(self, limit: float) -> None:
        self.limit = limit

    def __enter__(self) -> _Clock:
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        assert time.monotonic() - self.start < self.limit, "took too long"


def test_html_nested_100000_deep_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "deep.html"
    path.write_text("<html><body>" + "<div>" * 100_000 + "x" + "</div>" * 100_000 + "</body></html>")
    with _Clock(5), pytest.raises(LoadError, match="nested more than 3,000 levels"):
        load_html(path)  # Lexbor alone would need about 37 s for this page


def test_html_unclosed_formatting_tags_stay_fast(tmp_path: Path) -> None:
    path = tmp_path / "b.html"
    path.write_text("<html><body>" + "<b><i><font>" * 20_000 + "words at the bottom</body></html>")
    with _Clock(10):
        try:
            doc = load_html(path)
        except LoadError as exc:  # refused as too deep is a fine answer too
            assert "nested" in str(exc)
        else:
            assert "words at the bottom" in doc.sections[0].text


def test_huge_html_page_is_read_in_bounded_time(tmp_path: Path) -> None:
    paragraph = "<p>" + "Shipping volumes rose again this quarter. " * 5 + "</p>"
    path = tmp_path / "huge.html"
    path.write_text("<html><head><title>Huge</title></head><body>" + paragraph * 80_000 + "</body></html>")
    assert path.stat().st_size > 16_000_000
    with _Clock(60):
        doc = load_html(path)
    assert sum(len(s.text) for s in doc.sections) > 15_000_000


def test_html_declaring_entities_expands_nothing(tmp_path: Path) -> None:
    path = tmp_path / "lol.html"
    path.write_text(LAUGHS + "<html><body><p>&lol9; plain words</p></body></html>")
    with _Clock(5):
        doc = load_html(path)
    assert "plain words" in doc.sections[0].text and len(doc.sections[0].text) < 200


def test_epub_billion_laughs_in_the_package_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lol.epub"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("META-INF/container.xml", CONTAINER.format(opf="content.opf"))
        zf.writestr("content.opf", LAUGHS + '<package xmlns="http://www.idpf.org/2007/opf">&lol9;</package>')
    with _Clock(5), pytest.raises(LoadError, match="declares XML entities"):
        load_epub(path)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("META-INF/container.xml", LAUGHS + "<container>&lol9;</container>")
    with _Clock(5), pytest.raises(LoadError, match="declares XML entities"):
        load_epub(path)


def test_epub_billion_laughs_in_a_chapter_expands_nothing(tmp_path: Path) -> None:
    chapter = LAUGHS.replace('<?xml version="1.0"?>', "") + xhtml("Book", "<p>&lol9; chapter words</p>")
    path = write_epub(tmp_path / "c.epub", [("c.xhtml", "One", chapter)])
    with _Clock(5):
        doc = load_epub(path)
    assert "chapter words" in doc.sections[0].text and len(doc.sections[0].text) < 200


def test_epub_zip_bomb_and_too_many_parts(tmp_path: Path) -> None:
    bomb = write_epub(tmp_path / "bomb.epub", CHAPTERS, extra={})
    with zipfile.ZipFile(bomb, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("OEBPS/text/zeros.xhtml", b"\0" * (40 << 20))  # about 1,000:1
    with _Clock(10), pytest.raises(LoadError, match="zip bomb"):
        load_epub(bomb)
    many = write_epub(tmp_path / "many.epub", CHAPTERS, extra={f"x/{i}": b"" for i in range(10_001)})
    with _Clock(10), pytest.raises(LoadError, match="parts"):
        load_epub(many)


def test_epub_chapter_nested_100000_deep_is_refused(tmp_path: Path) -> None:
    deep = xhtml("Book", "<div>" * 100_000 + "x" + "</div>" * 100_000)
    path = write_epub(tmp_path / "deep.epub", [("d.xhtml", "Deep", deep)], compression=zipfile.ZIP_STORED)
    with _Clock(10), pytest.raises(LoadError, match="nested"):
        load_epub(path)


def _odt(path: Path, content: str) -> Path:
    with zipfile.ZipFile(path, "w") as zf:  # stored: deflated, the deep part alone trips the zip guard's ratio
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        zf.writestr("content.xml", content)
    return path


_ODT_OPEN = ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
             'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>')
_ODT_CLOSE = "</office:text></office:body></office:document-content>"


def test_odt_billion_laughs_is_refused(tmp_path: Path) -> None:
    path = _odt(tmp_path / "lol.odt", LAUGHS + _ODT_OPEN + "<text:p>&lol9;</text:p>" + _ODT_CLOSE)
    with _Clock(5), pytest.raises(LoadError, match="declares XML entities"):
        load_odt(path)


def test_odt_external_entity_is_refused(tmp_path: Path) -> None:
    xxe = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    path = _odt(tmp_path / "xxe.odt", xxe + _ODT_OPEN + "<text:p>&x;</text:p>" + _ODT_CLOSE)
    with pytest.raises(LoadError, match="declares XML entities"):
        load_odt(path)


def test_odt_nested_100000_deep_is_read_without_recursion(tmp_path: Path) -> None:
    deep = "<text:section>" * 50_000 + "<text:p>" + "<text:span>" * 50_000 + "deep words"
    deep += "</text:span>" * 50_000 + "</text:p>" + "</text:section>" * 50_000
    path = _odt(tmp_path / "deep.odt", _ODT_OPEN + deep + _ODT_CLOSE)
    with _Clock(20):
        doc = load_odt(path)
    assert doc.sections[0].text == "deep words"


def test_rtf_deep_groups_and_huge_picture(tmp_path: Path) -> None:
    path = tmp_path / "deep.rtf"
    path.write_bytes(b"{\\rtf1 " + b"{" * 200_000 + b"deep words" + b"}" * 200_000 + b"}")
    with _Clock(10):
        assert load_rtf(path).sections[0].text == "deep words"
    path.write_bytes(b"{\\rtf1{\\pict\\pngblip " + b"0123456789abcdef" * (4 << 20) + b"}Caption text\\par}")
    with _Clock(20):
        assert load_rtf(path).sections[0].text == "Caption text"


def _mail(subject: str = "Crafted") -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = subject
    msg["From"] = "x@example.org"
    msg.set_content("body words")
    return msg


def test_email_with_10000_attachments_is_refused_at_once(tmp_path: Path) -> None:
    parts = "".join(f"--B\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=a{i}.txt\r\n\r\n"
                    f"hello {i}\r\n" for i in range(10_000))
    path = tmp_path / "many.eml"
    path.write_bytes(("From: a@example.org\r\nSubject: many\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; "
                      f"boundary=B\r\n\r\n{parts}--B--\r\n").encode())
    with _Clock(3), pytest.raises(LoadError, match="more than 500 parts"):
        load_eml(path)


def test_email_nested_5000_multiparts_deep_is_refused_at_once(tmp_path: Path) -> None:
    n = 5_000
    head = "".join(f"--B{i}\r\nContent-Type: multipart/mixed; boundary=B{i + 1}\r\n\r\n" for i in range(n))
    tail = "".join(f"--B{i}--\r\n" for i in range(n, -1, -1))
    path = tmp_path / "deep.eml"
    path.write_bytes(("Subject: deep\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B0\r\n\r\n"
                      f"{head}--B{n}\r\nContent-Type: text/plain\r\n\r\ndeep\r\n{tail}").encode())
    with _Clock(3), pytest.raises(LoadError, match="parts"):
        load_eml(path)


def test_email_forwarded_400_deep_reads_three_levels(tmp_path: Path) -> None:
    raw = b"Content-Type: message/rfc822\r\n\r\n" * 400 + b"Subject: inner\r\nContent-Type: text/plain\r\n\r\nx\r\n"
    path = tmp_path / "fwd.eml"
    path.write_bytes(b"Subject: outer\r\n" + raw)
    with _Clock(5):
        doc = load_eml(path)
    assert max(len(s.heading_path) for s in doc.sections) <= 1 + 3  # the subject, then MAX_NESTING levels


def test_mbox_with_a_crafted_message_keeps_the_others(tmp_path: Path) -> None:
    crafted = _mail()
    for i in range(600):
        crafted.add_attachment(b"x", maintype="text", subtype="plain", filename=f"{i}.txt")
    fine = _mail("Fine message")
    path = tmp_path / "box.mbox"
    path.write_bytes(b"From a@b Sat Dec  5 10:00:00 2026\n" + bytes(crafted) + b"\n\n"
                     + b"From a@b Sat Dec  5 10:00:00 2026\n" + bytes(fine) + b"\n")
    with _Clock(10):
        doc = load_mbox(path)
    assert [(s.page, s.heading_path) for s in doc.sections] == [(2, ("Fine message",))]
