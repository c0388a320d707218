"""The viewer reads a cited file again in a parser child of its own (`document.reread.Rereader`): under the
time budget and memory cap indexing reads it under, an e-mail's attachment by its part, a read no longer wanted
stopped at once. Measured before: a 90 MB .rtf took 34 s and 5 GB in the app's own process."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from desktop_rag.config import Settings
from desktop_rag.engine.document.reread import Rereader
from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.chunking import document_text
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.parse_child import parse_in_process
from desktop_rag.engine.ingest.parsing import ParseCancelled
from tests.support.doc_files import write_eml, write_slow_rtf


def _peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


@pytest.fixture
def reader():
    reader = Rereader()
    reader.configure(Settings())
    yield reader
    reader.close()


def test_an_attachment_is_read_by_its_part_in_the_child_as_this_process_reads_it(reader, tmp_path):
    eml = write_eml(tmp_path / "budget.eml")
    part = next(a.part for a in parse_in_process(eml, 1 << 26, LoadContext(ocr=False)).attachments
                if a.part.endswith(".docx"))
    text = document_text(reader.read(eml, part))
    assert "十一月十八日" in text
    assert text == document_text(parse_in_process(eml, 1 << 26, LoadContext(ocr=False), part))
    assert reader.parser.child_pid is not None  # read in the child


def test_a_slow_file_fails_with_the_time_budget_outside_this_process(reader, tmp_path):
    slow = write_slow_rtf(tmp_path / "notes.rtf", 20)  # about 7 s and 1.1 GB when read here
    reader.configure(Settings(parse_timeout_s=1.0))
    reader.parser.start()
    peak, started = _peak_rss_mb(), time.monotonic()
    with pytest.raises(LoadError) as failure:
        reader.read(slow)
    assert failure.value.code == "read_timeout"
    assert time.monotonic() - started < 5
    assert _peak_rss_mb() - peak < 200


def test_the_viewer_budget_is_at_most_its_own_and_reads_no_pictures(reader):
    reader.configure(Settings(parse_timeout_s=600.0, ocr_enabled=True))
    assert reader.parser.timeout_s == 30.0 and not reader.parser.ocr


def test_a_read_no_longer_wanted_stops_at_once(reader, tmp_path):
    slow = write_slow_rtf(tmp_path / "notes.rtf", 20)
    reader.parser.start()
    cancel, outcome = threading.Event(), []

    def read() -> None:
        try:
            reader.read(slow, cancel=cancel)
        except ParseCancelled:
            outcome.append(time.monotonic())

    thread = threading.Thread(target=read)
    thread.start()
    time.sleep(0.5)
    cancelled = time.monotonic()
    cancel.set()
    thread.join(10)
    assert outcome and outcome[0] - cancelled < 1.0
    assert reader.parser.restarts == 1  # its child killed; a new one reads the next file
