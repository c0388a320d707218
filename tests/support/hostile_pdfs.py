"""PDFs whose pages are hostile to draw (built by hand, tests/support/pdf_build.py): two pages, page 1 a line of text
and page 2 either a form that draws the next form twice, levels deep (PDFium parses each drawing on its own:
gigabytes), or a content stream that inflates to gigabytes; or one empty page of any size (too thin to draw). The
viewer's and the locator's child processes, the CLI and MCP are tested against them."""

from __future__ import annotations

import zlib

from tests.support import pdf_build as build

FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
TEXT = b"BT /F1 12 Tf 72 720 Td (The lighthouse keeper recorded the storm.) Tj ET"


def form_fanout_pdf(levels: int) -> bytes:
    """Two pages: page 1 a line of text; page 2 a form that draws the next form twice, `levels` deep (2^levels
    forms: PDFium parses each drawing of a form on its own, so loading the page takes gigabytes)."""
    page = ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {} 0 R "
            "/Resources << /Font << /F1 3 0 R >> /XObject << /Fm1 7 0 R >> >> >>")
    forms = []
    for level in range(1, levels + 1):
        body = f"/Fm{level + 1} Do /Fm{level + 1} Do".encode() if level < levels else b"0 0 1 1 re f"
        forms.append(f"<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /XObject << "
                     f"/Fm{level + 1} {7 + level} 0 R >> >> /Length {len(body)} >>\nstream\n".encode()
                     + body + b"\nendstream")
    return build.write_pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R 6 0 R] /Count 2 >>",
                            FONT, build._stream(TEXT + b" /Fm1 Do"), page.format(7 + levels), page.format(4),
                            *forms, build._stream(TEXT)])


def flate_bomb_pdf(gb: float) -> bytes:
    """Two pages: page 1 a line of text; page 2 a content stream of spaces that inflates to `gb` GB (3 MB here)."""
    packer = zlib.compressobj(9)
    spaces = b" " * (64 << 20)
    data = b"".join([packer.compress(spaces) for _ in range(int(gb * 1024 / 64))] + [packer.flush()])
    page = ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {} 0 R "
            "/Resources << /Font << /F1 3 0 R >> >> >>")
    return build.write_pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R 6 0 R] /Count 2 >>",
                            FONT, build._stream(TEXT), page.format(4), page.format(7),
                            f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode() + data
                            + b"\nendstream"])


def thin_pdf(box: str) -> bytes:
    """A one-page PDF with the given MediaBox and nothing on it."""
    return build.write_pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                            f"<< /Type /Page /Parent 2 0 R /MediaBox [{box}] >>"])
