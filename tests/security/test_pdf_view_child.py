"""The viewer's PDFium work in a child of its own (document/pdf_child.py): a hostile page drawn or searched in the
app's process took it past 24 GB (forms drawing forms twice, 30 deep) and got it killed. In the child it fails
under the memory cap or the time limit, the app's process stays small, and the next page is drawn by a fresh
child."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from desktop_rag.engine import LoadError, ParseCancelled
from desktop_rag.engine.document.pdf_child import PdfPages
from tests.support import pdf_build as build
from tests.support.hostile_pdfs import flate_bomb_pdf, form_fanout_pdf


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _files(tmp_path: Path, levels: int) -> tuple[Path, Path]:
    hostile, normal = tmp_path / "fanout.pdf", tmp_path / "normal.pdf"
    hostile.write_bytes(form_fanout_pdf(levels))
    normal.write_bytes(build.standard_pdf([["A normal page of another document."]]))
    return hostile, normal


def test_a_page_past_the_memory_cap_fails_in_the_child_and_the_next_page_is_drawn(tmp_path: Path) -> None:
    hostile, normal = _files(tmp_path, 30)
    pages = PdfPages()
    try:
        pdf = pages.open(hostile)
        before, first_child = _rss_mb(), pages.child_pid
        with pytest.raises(LoadError) as failed:
            pdf.render(1, 1.0)  # 4 GB (the child's cap) in about 6 s; in the app's process: 24 GB, killed
        assert failed.value.code == "view_page_failed" and _rss_mb() - before < 300
        image = pages.open(normal).render(0, 1.0)
        assert (image.width, image.height) == (595, 842) and len(image.data) == image.stride * image.height
        assert pages.child_pid != first_child
        assert pdf.page_text(0).startswith("The lighthouse")  # the document is opened again in the new child
    finally:
        pages.close()


def test_a_flate_bomb_page_fails_in_the_child(tmp_path: Path) -> None:
    """3.1 GB inflated: under the child's 4 GB cap it fails in about 2 s, and the page before it is drawn after."""
    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(flate_bomb_pdf(3.1))
    pages = PdfPages()
    try:
        pdf = pages.open(bomb)
        before = _rss_mb()
        with pytest.raises(LoadError) as failed:
            pdf.render(1, 1.0)
        assert failed.value.code == "view_page_failed" and _rss_mb() - before < 300
        assert pdf.render(0, 1.0).width == 595
    finally:
        pages.close()


def test_a_page_past_the_time_limit_is_stopped(tmp_path: Path) -> None:
    hostile, _ = _files(tmp_path, 26)
    pages = PdfPages(timeout_s=1.0)
    try:
        pdf = pages.open(hostile)
        started = time.monotonic()
        with pytest.raises(LoadError) as failed:
            pdf.page_text(1)  # searching a page loads it as drawing it does
        assert failed.value.code == "view_page_failed" and time.monotonic() - started < 4
        assert pdf.render(0, 1.0).width == 595
    finally:
        pages.close()


def test_opening_another_document_cancels_the_page_being_drawn(tmp_path: Path) -> None:
    hostile, normal = _files(tmp_path, 26)
    pages = PdfPages()
    outcome: list[BaseException] = []
    try:
        pdf = pages.open(hostile)
        drawing = threading.Thread(target=lambda: _catch(outcome, lambda: pdf.render(1, 1.0)))
        drawing.start()
        time.sleep(0.5)
        started = time.monotonic()
        other = pages.open(normal)  # the passage asked for next
        assert time.monotonic() - started < 3 and other.page_count == 1
        drawing.join(5)
        assert not drawing.is_alive() and isinstance(outcome[0], ParseCancelled)
    finally:
        pages.close()


def _catch(into: list[BaseException], work) -> None:
    try:
        work()
    except BaseException as exc:  # noqa: BLE001 - what the thread ended with
        into.append(exc)
