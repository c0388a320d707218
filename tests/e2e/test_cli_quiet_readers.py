"""Issue 49 item 9: what the readers' libraries say is kept off the terminal. `desktop-rag index` on a message
whose attached picture claims 96 megapixels printed Pillow's DecompressionBombWarning on stderr (the size is all
that is read, and the app has its own bound), and a PDF page drawn for text recognition printed pypdfium2's
"Explicitly closing <PdfBitmap>" line. The run's output is its report, nothing else.
Bookkeeping, not semantics: the hashing embedder (DESKTOP_RAG_EMBEDDING_MODEL)."""

from __future__ import annotations

import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from tests.support.pdf_build import shared_broken_pdf
from tests.support.png_files import png_claiming


def test_index_prints_no_library_warnings(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    message = EmailMessage()
    message["Subject"], message["From"] = "Scans", "ann@example.org"
    message.set_content("The scan of the contract is attached.")
    message.add_attachment(png_claiming(12_000, 8_000), maintype="image", subtype="png", filename="scan.png")
    (docs / "scans.eml").write_bytes(message.as_bytes())
    (docs / "drawn.pdf").write_bytes(shared_broken_pdf(1))  # its second page is drawn for text recognition
    env = {**os.environ, "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"}
    out = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(tmp_path / "home"), "index",
                          str(docs)], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert "2 added" in out.stdout
    assert "DecompressionBombWarning" not in out.stderr and "Explicitly closing" not in out.stderr, out.stderr
