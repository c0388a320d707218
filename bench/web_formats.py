"""Parse speed of the web-page, e-book, e-mail, OpenDocument and RTF readers (issue 37).

Writes N files per format with the format's own writer (e-mail: the `email` and `mailbox` packages; .odt: odfpy;
.epub: zipfile + XHTML as the format defines it; .html and .rtf: their markup as browsers and Word write it), half
English and half Chinese, each about 40 paragraphs, then reads each format's files in a fresh child process:
files/s, units/s (chapters, messages, attachments) and the child's peak RSS. "eml-attached" is a message carrying
a Word document (python-docx, 10 paragraphs) and a 3-page PDF (the tests' PDF writer): each attachment is read as
a document of its own.
"""

from __future__ import annotations

import argparse
import json
import mailbox
import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from bench.common import CACHE, emit, figure

EN = ("Paragraph {i}: the harbour authority reported that container traffic rose by {i} percent, while the new "
      "cranes on the north quay cut the average turnaround of a ship to nineteen hours.")
ZH = "第{i}段：港务局报告集装箱吞吐量增长了百分之{i}，北码头的新起重机把船舶平均周转时间缩短到十九小时。"
PARAGRAPHS = 40
PDF_LINES = ("The pilot boat meets every tanker at the outer buoy.", "Dredging of the west channel ends in May.",
             "Ferry tickets are sold at the kiosk by gate four.")
UNITS = 5  # chapters of an e-book, messages of a mailbox

_CHILD = """
import importlib, json, resource, sys, time
from pathlib import Path
def peak_mb():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
module, function = sys.argv[1].split(":")
load = getattr(importlib.import_module(module), function)
files = sorted(Path(sys.argv[2]).iterdir())
start = time.perf_counter()
units = attached = 0
for path in files:
    doc = load(path, None)
    units += len({s.page for s in doc.sections})
    attached += len(doc.attachments)
print(json.dumps({"seconds": time.perf_counter() - start, "files": len(files), "units": units, "attached": attached,
                  "rss_mb": peak_mb()}))
"""

LOADERS = {
    "html": "desktop_rag.engine.ingest.loaders.html:load_html",
    "epub": "desktop_rag.engine.ingest.loaders.epub:load_epub",
    "eml": "desktop_rag.engine.ingest.loaders.email:load_eml",
    "eml-attached": "desktop_rag.engine.ingest.loaders.email:load_eml",
    "mbox": "desktop_rag.engine.ingest.loaders.email:load_mbox",
    "odt": "desktop_rag.engine.ingest.loaders.odt:load_odt",
    "rtf": "desktop_rag.engine.ingest.loaders.rtf:load_rtf",
}


def _paragraphs(k: int, lang: str) -> list[str]:
    return [(ZH if lang == "zh" else EN).format(i=k * 100 + i) for i in range(PARAGRAPHS)]


def _html(k: int, lang: str) -> str:
    body = "".join(f"<h2>Part {i // 10 + 1}</h2><p>{p}</p>" if i % 10 == 0 else f"<p>{p}</p>"
                   for i, p in enumerate(_paragraphs(k, lang)))
    nav = "<nav><ul>" + "".join(f'<li><a href="/{x}">{x}</a></li>' for x in ("Home", "News", "About")) + "</ul></nav>"
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Report {k}</title></head><body>{nav}'
            f"<article><h1>Report {k}</h1>{body}</article><footer>Copyright</footer></body></html>")


def _message(k: int, lang: str, unit: int = 0) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = f"{'港口报告' if lang == 'zh' else 'Harbour report'} {k}-{unit}"
    msg["From"] = "Harbour Office <office@example.org>"
    msg["Date"] = "Tue, 01 Dec 2026 09:30:00 +0000"
    paragraphs = _paragraphs(k * 10 + unit, lang)  # each message of a mailbox its own paragraphs
    msg.set_content("\n\n".join(paragraphs[: PARAGRAPHS // UNITS if unit else PARAGRAPHS]))
    return msg


def _attached_message(k: int, lang: str) -> EmailMessage:
    """A message with a Word document and a 3-page PDF attached (each read as a document of its own)."""
    import io

    import docx

    from tests.data.make_fixtures import build_pdf

    msg = _message(k, lang)
    document = docx.Document()
    for paragraph in _paragraphs(k + 1, lang)[:10]:
        document.add_paragraph(paragraph)
    out = io.BytesIO()
    document.save(out)
    msg.add_attachment(out.getvalue(), maintype="application",
                       subtype="vnd.openxmlformats-officedocument.wordprocessingml.document", filename="minutes.docx")
    pages = [[f"Report {k}: {line}"] for line in PDF_LINES]  # Helvetica: Latin text; pages differ beyond numbers
    # (lines alike on every page but for their digits are a running header and are dropped)
    msg.add_attachment(build_pdf(pages), maintype="application", subtype="pdf", filename="report.pdf")
    return msg


def _odt(path: Path, k: int, lang: str) -> None:
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P

    doc = OpenDocumentText()
    for i, paragraph in enumerate(_paragraphs(k, lang)):
        if i % 10 == 0:
            doc.text.addElement(H(outlinelevel=1, text=f"Part {i // 10 + 1}"))
        doc.text.addElement(P(text=paragraph))
    doc.save(str(path))


def _rtf(k: int, lang: str) -> bytes:
    def escaped(text: str) -> str:
        return "".join(c if ord(c) < 128 else f"\\u{ord(c) if ord(c) < 32768 else ord(c) - 65536}?" for c in text)

    body = "".join(escaped(p) + "\\par\n" for p in _paragraphs(k, lang))
    return ("{\\rtf1\\ansi\\ansicpg1252\\uc1{\\fonttbl{\\f0 Arial;}{\\f1\\fcharset134 SimSun;}}\\pard\\f0 "
            + body + "}").encode("ascii")


def write_files(folder: Path, n: int) -> dict[str, Path]:
    """n files per format (half English, half Chinese) under folder/<format>/; reused when complete."""
    from tests.support.epub_files import write_epub, xhtml

    dirs = {}
    for fmt in LOADERS:
        target = folder / fmt
        dirs[fmt] = target
        if target.is_dir() and len(list(target.iterdir())) == n:
            continue
        target.mkdir(parents=True, exist_ok=True)
        for k in range(n):
            lang = "zh" if k % 2 else "en"
            path = target / f"f{k:04d}.{fmt.split('-')[0]}"
            if fmt == "html":
                path.write_text(_html(k, lang), encoding="utf-8")
            elif fmt == "eml":
                path.write_bytes(bytes(_message(k, lang)))
            elif fmt == "eml-attached":
                path.write_bytes(bytes(_attached_message(k, lang)))
            elif fmt == "mbox":
                box = mailbox.mbox(str(path))
                for unit in range(1, UNITS + 1):
                    box.add(_message(k, lang, unit))
                box.flush()
                box.close()
            elif fmt == "odt":
                _odt(path, k, lang)
            elif fmt == "rtf":
                path.write_bytes(_rtf(k, lang))
            elif fmt == "epub":
                per = PARAGRAPHS // UNITS
                paragraphs = _paragraphs(k, lang)
                chapters = [(f"c{u}.xhtml", f"Chapter {u + 1}", xhtml(
                    "Book", f"<h1>Chapter {u + 1}</h1>" + "".join(f"<p>{p}</p>" for p in
                                                                 paragraphs[u * per:(u + 1) * per])))
                            for u in range(UNITS)]
                write_epub(path, chapters)
    return dirs


def read_in_child(loader: str, folder: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run([sys.executable, "-c", _CHILD, loader, str(folder)], capture_output=True, text=True,
                          env=env, timeout=1200, cwd=folder)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=200, help="files per format")
    args = parser.parse_args()
    dirs = write_files(CACHE / f"web_formats-{args.n}", args.n)
    rows = []
    for fmt, loader in LOADERS.items():
        result = read_in_child(loader, dirs[fmt])
        unit = {"epub": "chapters", "mbox": "messages", "eml-attached": "attachments"}.get(fmt)
        shape = f"{UNITS} {unit} of {PARAGRAPHS // UNITS} paragraphs" if unit else f"{PARAGRAPHS} paragraphs"
        if fmt == "eml-attached":
            shape = f"{PARAGRAPHS} paragraphs with a .docx and a 3-page .pdf attached"
        rows.append(figure(f"{fmt}: files/s", result["files"] / result["seconds"], "files/s",
                           note=f"{result['files']} files of {shape}, half Chinese"))
        if unit:
            count = result["attached"] if fmt == "eml-attached" else result["units"]
            rows.append(figure(f"{fmt}: {unit}/s", count / result["seconds"], f"{unit}/s"))
        rows.append(figure(f"{fmt}: peak RSS of the reading process", result["rss_mb"], "MB"))
    emit("web_formats", rows)


if __name__ == "__main__":
    main()
