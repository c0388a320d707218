"""Issue 37 item 5, through the real index: a folder holding a crafted file of each new kind (zip bombs, billion
laughs, deep nesting, a bomb attached to an e-mail, a crafted message in a mailbox) beside good files of the same
kinds. Each crafted file fails alone with a clear reason from its reader (no crash of the parser child, no
time-out, no traceback, no "the reader failed" catch-all), or is read without the part that was crafted; every
good file is indexed: nothing else is lost."""

from __future__ import annotations

import io
import time
import zipfile
from email.message import EmailMessage
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.parsing import CRASHED
from tests.support.doc_files import WRITERS, write_all

LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10))
          + "]>")
BOMB = b"\0" * (64 << 20)  # inflates about 1,000 to 1


def _replaced(source: Path, target: Path, member: str, data: bytes) -> Path:
    """A copy of the zip `source` with `member` replaced by `data`."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, data if info.filename == member else zin.read(info.filename))
    return target


def _docx_bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml", BOMB)
    return out.getvalue()


def _crafted(folder: Path, good: Path) -> dict[str, bool]:
    """Crafted files in `folder`: name -> whether it is still indexed (its crafted part left out)."""
    (folder / "deep.html").write_text("<html><body>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000,
                                      encoding="utf-8")
    _replaced(good / "sample.epub", folder / "bomb.epub", "OEBPS/text/one.xhtml", BOMB)
    _replaced(good / "sample.epub", folder / "laughs.epub", "OEBPS/content.opf",
              (LAUGHS + "<package>&lol9;</package>").encode())
    _replaced(good / "sample.odt", folder / "laughs.odt", "content.xml",
              (LAUGHS + "<office:document-content>&lol9;</office:document-content>").encode())
    _replaced(good / "sample.odt", folder / "bomb.odt", "content.xml", BOMB)
    (folder / "groups.rtf").write_bytes(b"{\\rtf1 " + b"{" * 1_000_000 + b"deep" + b"}" * 1_000_000 + b"}")
    msg = EmailMessage()
    msg["Subject"], msg["From"] = "Harbour survey", "ann@example.org"
    msg.set_content("The survey boat leaves at dawn on Monday.")
    msg.add_attachment(_docx_bomb(), maintype="application",
                       subtype="vnd.openxmlformats-officedocument.wordprocessingml.document", filename="bomb.docx")
    (folder / "bomb-attached.eml").write_bytes(msg.as_bytes())
    parts = "".join(f"--b\nContent-Type: text/plain\n\npart {i}\n" for i in range(10_000))
    crafted = f"Subject: parts\nContent-Type: multipart/mixed; boundary=b\n\n{parts}--b--\n".encode()
    (folder / "crafted.mbox").write_bytes(b"From a@b Mon Jan 1 00:00:00 2024\n" + crafted
                                          + b"\nFrom c@d Mon Jan 1 00:00:00 2024\nSubject: kept\n\nThis one is kept.\n")
    return {"deep.html": False, "bomb.epub": False, "laughs.epub": False, "laughs.odt": False, "bomb.odt": False,
            "groups.rtf": True, "bomb-attached.eml": True, "crafted.mbox": True}


def test_crafted_files_fail_alone_and_the_good_ones_are_indexed(tmp_path: Path):
    good, docs = tmp_path / "made", tmp_path / "docs"
    good.mkdir()
    docs.mkdir()
    write_all(good)
    write_all(docs)
    crafted = _crafted(docs, good)
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        started = time.monotonic()
        report = engine.index([docs])
        seconds = time.monotonic() - started
        failed = {Path(f.path).name: str(f.error) for f in report.failed}
        assert set(failed) == {name for name, kept in crafted.items() if not kept}, failed
        for name, reason in failed.items():
            assert reason and reason != CRASHED and "Traceback" not in reason, (name, reason)
            assert "did not finish" not in reason and "reader failed" not in reason, (name, reason)
        assert report.added == len(WRITERS) + sum(crafted.values())
        assert seconds < 120
        hits = engine.search("When does the survey boat leave?", 3)
        assert Path(hits[0].path).name == "bomb-attached.eml" and "at dawn on Monday" in hits[0].text
        attached = {Path(f.path).name for f in engine.files() if f.parent_id is not None}
        assert attached == {"纪要.docx", "shuttle.pdf"}  # sample.eml's; the bomb became no document
        kept = engine.search("This one is kept", 3)
        assert (Path(kept[0].path).name, kept[0].page) == ("crafted.mbox", 2)
    finally:
        engine.close()
