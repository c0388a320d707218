"""Generate the small good/bad input files under tests/data (run: python tests/data/make_fixtures.py)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOOD = HERE / "good"
BAD = HERE / "bad"

HEADER = "ACME Field Guide - Internal"
PDF_PAGES = [
    [
        "Alpha section: installing the widget",
        "The quick brown fox jumps over",
        "the lazy dog while the widget is being",
        "installed. This is an exam-",
        "ple of a hyphenated word.",
    ],
    ["Bravo section: configuring", "Set the colour to blue before you start.", "Never skip this step."],
    ["Charlie section: troubleshooting", "If the widget hums, restart it.", "Call support if it smokes."],
]

GBK_TEXT = "第一章 概述\n\n本文件使用GBK编码保存，用于测试中文编码检测。\n知识库可以回答关于文档的问题。\n"
UTF16_TEXT = "UTF-16 with a byte order mark.\n第二行是中文：你好，世界。\n"
MARKDOWN = """Intro paragraph before any heading.

# Setup

Read this first.

## Install

Run the installer and follow
the prompts on screen.

```bash
# not a heading, just a comment
pip install desktop-rag
```

### Linux

Use the AppImage.

## Configure

Edit the settings file.

# Usage

Ask questions in the chat.
"""


def _pdf_escape(text: str) -> bytes:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")


def _page_stream(lines: list[str], number: int, total: int) -> bytes:
    """Header at the top, body lines, footer and page number at the bottom."""
    ops = [b"BT /F1 9 Tf 1 0 0 1 72 770 Tm (" + _pdf_escape(HEADER) + b") Tj ET"]
    ops.append(b"BT /F1 11 Tf 14 TL 1 0 0 1 72 730 Tm")
    ops += [b"(" + _pdf_escape(line) + b") Tj T*" for line in lines]
    ops.append(b"ET")
    ops.append(b"BT /F1 9 Tf 1 0 0 1 280 40 Tm (" + _pdf_escape(f"Page {number} of {total}") + b") Tj ET")
    return b"\n".join(ops)


def build_pdf(pages: list[list[str]] | None, *, blank_pages: int = 0) -> bytes:
    """A minimal valid PDF (Helvetica text); `blank_pages` pages carry only a drawn line."""
    streams = [_page_stream(p, i + 1, len(pages)) for i, p in enumerate(pages or [])]
    streams += [b"0.5 w 72 72 m 500 700 l S"] * blank_pages
    objs: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    }
    kids = []
    for i, stream in enumerate(streams):
        pid = 4 + 2 * i
        kids.append(b"%d 0 R" % pid)
        objs[pid] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (pid + 1)
        )
        objs[pid + 1] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
    objs[2] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(kids)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for num in sorted(objs):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objs[num] + b"\nendobj\n"
    xref = len(out)
    size = max(objs) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        out += b"%010d 00000 n \n" % offsets[num]
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def encrypt_pdf(data: bytes, user_password: str) -> bytes:
    """Encrypt with RC4-128 (readable without the optional cryptography package)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="RC4-128")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def build_docx() -> bytes:
    """Title, nested headings, paragraphs, a table between paragraphs."""
    import docx

    document = docx.Document()
    document.add_heading("Widget Manual", level=0)
    document.add_paragraph("Opening paragraph before the first heading.")
    document.add_heading("Setup", level=1)
    document.add_paragraph("Unpack the box.")
    document.add_heading("Install", level=2)
    document.add_paragraph("Before the table.")
    table = document.add_table(rows=2, cols=2)
    for r, row in enumerate([("Part", "Count"), ("Bolt", "4")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_paragraph("After the table.")
    document.add_heading("Usage", level=1)
    document.add_paragraph("中文段落：按下按钮即可开始。")
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def build_zip_bomb() -> bytes:
    """A .docx-shaped zip whose document.xml inflates 8 MB of zeros from a few KB."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        zf.writestr("word/document.xml", b"\0" * (8 << 20))
    return buf.getvalue()


def build_corrupt_docx() -> bytes:
    """A zip with the names of a .docx but a broken document.xml."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        zf.writestr("_rels/.rels", "<Relationships")
        zf.writestr("word/document.xml", "<w:document><w:body><broken")
    return buf.getvalue()


def fixtures() -> dict[Path, bytes]:
    """Every fixture file and its bytes."""
    pdf = build_pdf(PDF_PAGES)
    return {
        GOOD / "report.pdf": pdf,
        GOOD / "encrypted_no_password.pdf": encrypt_pdf(pdf, ""),
        GOOD / "manual.docx": build_docx(),
        GOOD / "chinese_gbk.txt": GBK_TEXT.encode("gbk"),
        GOOD / "utf16_bom.txt": UTF16_TEXT.encode("utf-16"),  # with BOM
        GOOD / "notes.md": MARKDOWN.encode("utf-8"),
        BAD / "encrypted.pdf": encrypt_pdf(pdf, "secret"),
        BAD / "truncated.pdf": pdf[: len(pdf) // 2],
        BAD / "broken.pdf": b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\nendobj\nxref\nnonsense\n"
        b"trailer\n<< >>\nstartxref\n99999\n%%EOF\n",
        BAD / "garbage.pdf": b"This is not a PDF at all, just some text saved as .pdf\n" * 8,
        BAD / "scanned.pdf": build_pdf(None, blank_pages=2),
        BAD / "old_word.docx": bytes.fromhex("d0cf11e0a1b11ae1") + b"\0" * 504 + b"Word.Document.8" * 10,
        BAD / "zip_bomb.docx": build_zip_bomb(),
        BAD / "corrupt.docx": build_corrupt_docx(),
        BAD / "empty.txt": b"",
        BAD / "whitespace.txt": b"  \n\t\n   \r\n",
        BAD / "binary.txt": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)) * 2,
    }


def main() -> None:
    """Write all fixtures."""
    for path, data in fixtures().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path.relative_to(HERE)}: {len(data)} bytes")


if __name__ == "__main__":
    main()
