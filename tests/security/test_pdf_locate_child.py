"""`locate` without a PDFium child or a reader given (any caller of the engine but the viewer: a command, a tool,
a script) opened the PDF with PDFium in its own process, and read an e-mail (its attached PDFs too) there: a cited
PDF replaced by a hostile one (a Flate bomb page) killed that process. It now starts a child of its own for the call
(`document.pdf_child.PdfPages`, `document.reread.Rereader`): the page fails there, the caller gets the reason and
goes on.

Each case runs in a fresh interpreter, so that whether PDFium was loaded in the caller's process can be seen."""

from __future__ import annotations

import json
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from tests.support import REPO
from tests.support import pdf_build as build
from tests.support.hostile_pdfs import flate_bomb_pdf

LINE = "The lighthouse keeper recorded the storm."

CALLER = """
import json, resource, sys
# a safety net for a regression: PDFium in this process fails at 2 GiB instead of taking the machine
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
from desktop_rag.engine import Hit, locate
def rss_mb():
    return next(int(l.split()[1]) // 1024 for l in open("/proc/self/status") if l.startswith("VmRSS:"))
before = rss_mb()
where = locate(Hit(1, 1.0, sys.argv[1], int(sys.argv[2] or 0) or None, "", sys.argv[3]), None)
print(json.dumps({"page": where.page, "match": where.match, "error": where.error.code, "rects": len(where.rects),
                  "pdfium_here": "pypdfium2" in sys.modules, "grew_mb": rss_mb() - before}))
"""


def _locate_in_a_fresh_process(path: Path, page: int | None, text: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CALLER, str(path), str(page or ""), text], capture_output=True, text=True,
                          timeout=180, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_pdf_passage_is_located_with_pdfium_in_a_child_not_in_the_callers_process(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(build.standard_pdf([["An opening page."], [LINE]]))
    found = _locate_in_a_fresh_process(path, 1, LINE)  # cited on page 1, found on page 2
    assert (found["page"], found["match"], found["error"]) == (2, "exact", None) and found["rects"] >= 1
    assert not found["pdfium_here"]


def test_a_flate_bomb_page_fails_in_the_child_and_the_caller_gets_the_reason(tmp_path: Path) -> None:
    """The cited page became a 3.1 GB Flate bomb: in the caller's process PDFium inflated it there; now the child
    fails under its memory cap and `locate` says why (`view_page_failed`, English and Chinese)."""
    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(flate_bomb_pdf(3.1))
    failed = _locate_in_a_fresh_process(bomb, 2, LINE)
    assert (failed["error"], failed["match"]) == ("view_page_failed", "not_found")
    assert not failed["pdfium_here"] and failed["grew_mb"] < 300


def _mail(tmp_path: Path, attached: bytes) -> Path:
    msg = EmailMessage()
    msg["Subject"], msg["From"] = "Harbour", "ann@example.org"
    msg.set_content("The harbour master opens the gate at dawn.")
    msg.add_attachment(attached, maintype="application", subtype="pdf", filename="guide.pdf")
    path = tmp_path / "harbour.eml"
    path.write_bytes(bytes(msg))
    return path


def test_an_e_mail_and_its_attached_pdf_are_read_in_a_child_not_in_the_callers_process(tmp_path: Path) -> None:
    found = _locate_in_a_fresh_process(_mail(tmp_path, build.standard_pdf([[LINE]])), None,
                                       "The harbour master opens the gate at dawn.")
    assert (found["match"], found["error"]) == ("exact", None) and not found["pdfium_here"]


def test_an_e_mail_with_a_flate_bomb_attached_fails_in_the_child(tmp_path: Path) -> None:
    """Its body's passage: the message is read with its attachments, and the bomb's page killed the caller."""
    failed = _locate_in_a_fresh_process(_mail(tmp_path, flate_bomb_pdf(3.1)), None,
                                        "The harbour master opens the gate at dawn.")
    assert failed["error"] in {"reader_crashed", "out_of_memory"} and failed["match"] == "not_found"
    assert not failed["pdfium_here"] and failed["grew_mb"] < 300
