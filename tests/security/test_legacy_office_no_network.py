"""Issue 49 item 2 (HIGH): converting a legacy Office file fetches nothing. LibreOffice, given a .doc that is really
flat ODT with a picture on a web server, or an HTML page saved as .doc with a picture, a frame and a style sheet,
sent GET requests to those hosts while indexing, also for a .doc attached to a stranger's e-mail.

A loopback HTTP server records every request; each legacy file is read (as indexing reads it) and the server must
have seen none. Twice: as the app runs here (Linux: no network for the converter, plus its profile's settings),
and with the network namespace turned off, so the profile's settings alone must hold (as on macOS and Windows,
or where user namespaces are not permitted). .xls is read by calamine now (item 7), with no LibreOffice at all.

Real LibreOffice is required: CI installs it (.ci/run) and sets DESKTOP_RAG_REQUIRE_SOFFICE, so there a missing
converter fails instead of skipping."""

from __future__ import annotations

import http.server
import os
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import load, office_sandbox
from desktop_rag.engine.ingest.loaders.legacy_office import find_soffice

SOFFICE = find_soffice()
if SOFFICE is None and os.environ.get("DESKTOP_RAG_REQUIRE_SOFFICE"):
    raise RuntimeError("DESKTOP_RAG_REQUIRE_SOFFICE is set but LibreOffice (soffice) is not installed")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")

_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
       'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
       'xmlns:xlink="http://www.w3.org/1999/xlink" '
       'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2"')


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def _record(self) -> None:
        type(self).seen.append(f"{self.command} {self.path}")
        self.send_response(404)
        self.end_headers()

    do_GET = do_HEAD = do_POST = do_PROPFIND = do_OPTIONS = _record

    def log_message(self, *_args) -> None:
        return None


@pytest.fixture
def server() -> Iterator[str]:
    _Recorder.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _flat_odt(url: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?><office:document {_NS} '
            'office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>'
            "<text:p>The survey of the river delta in 1998.</text:p>"
            f'<text:p><draw:frame draw:name="i1" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="{url}/odt.png" '
            'xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>'
            f'<text:section text:name="S1"><text:section-source xlink:href="{url}/section.odt" xlink:type="simple"/>'
            "</text:section></office:text></office:body></office:document>")


def _flat_odp(url: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?><office:document {_NS} '
            'office:mimetype="application/vnd.oasis.opendocument.presentation"><office:body><office:presentation>'
            '<draw:page draw:name="p1"><draw:frame svg:width="10cm" svg:height="2cm" svg:x="1cm" svg:y="1cm">'
            "<draw:text-box><text:p>The lighthouse slide.</text:p></draw:text-box></draw:frame>"
            '<draw:frame svg:width="4cm" svg:height="4cm" svg:x="1cm" svg:y="5cm">'
            f'<draw:image xlink:href="{url}/odp.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>'
            "</draw:frame></draw:page></office:presentation></office:body></office:document>")


def _web_page(url: str) -> str:
    return (f'<html><head><link rel="stylesheet" href="{url}/style.css"><title>Memo</title></head><body>'
            f'<p>The old memo about the harbour.</p><img src="{url}/page.png">'
            f'<iframe src="{url}/frame.html"></iframe></body></html>')


def _files(folder: Path, url: str) -> dict[str, str | None]:
    """Legacy files that reach for `url`: name -> a phrase the reading must find (None: it may not read)."""
    (folder / "flat.doc").write_text(_flat_odt(url), encoding="utf-8")
    (folder / "web.doc").write_text(_web_page(url), encoding="utf-8")
    (folder / "flat.ppt").write_text(_flat_odp(url), encoding="utf-8")
    (folder / "web.ppt").write_text(_web_page(url), encoding="utf-8")  # a web page is no presentation: not read
    (folder / "web.xls").write_text(_web_page(url), encoding="utf-8")  # an "Excel" web page: the HTML reader's
    message = EmailMessage()
    message["Subject"], message["From"] = "Survey notes", "stranger@example.org"
    message.set_content("The notes are attached.")
    message.add_attachment(_flat_odt(url).encode(), maintype="application", subtype="msword", filename="notes.doc")
    (folder / "attached.eml").write_bytes(message.as_bytes())
    return {"flat.doc": "river delta", "web.doc": "memo about the harbour", "flat.ppt": "lighthouse slide",
            "web.ppt": None, "web.xls": "memo about the harbour", "attached.eml": "river delta"}


def _read_all(folder: Path, expected: dict[str, str | None]) -> list[str]:
    """Read each file as indexing does; the names whose phrase was not found."""
    missed = []
    for name, phrase in expected.items():
        try:
            doc = load(folder / name, max_bytes=0)
        except LoadError:
            missed += [] if phrase is None else [name]
            continue
        texts = [s.text for s in doc.sections] + [s.text for a in doc.attachments for s in a.document.sections]
        missed += [] if phrase is None or any(phrase in t for t in texts) else [name]
    return missed


def test_no_legacy_file_fetches_anything(tmp_path: Path, server: str) -> None:
    missed = _read_all(tmp_path, _files(tmp_path, server))
    assert _Recorder.seen == []
    assert missed == []  # and each was still read


def test_the_profile_alone_fetches_nothing(tmp_path: Path, server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no network namespace can be made (macOS, Windows, restricted Linux) the profile's settings hold."""
    monkeypatch.setattr(office_sandbox, "network_off", lambda: ())
    missed = _read_all(tmp_path, _files(tmp_path, server))
    assert _Recorder.seen == []
    assert missed == []


@pytest.mark.skipif(not office_sandbox.network_off(), reason="no network namespace can be made here")
def test_the_converter_runs_without_network(tmp_path: Path, server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On Linux the converter has no network at all: even with the profile's settings taken away it reaches
    nothing."""
    monkeypatch.setattr(office_sandbox, "SETTINGS", ())
    missed = _read_all(tmp_path, _files(tmp_path, server))
    assert _Recorder.seen == []
    assert missed == []
