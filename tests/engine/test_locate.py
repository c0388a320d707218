"""Re-locating cited passages: changed-file detection, whitespace-insensitive matching, PDF pages and boxes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop_rag.engine.answer.extractive import extractive_answer
from desktop_rag.engine.document.locate import (
    CHANGED,
    EXACT,
    MATCHED,
    MISSING,
    NOT_FOUND,
    PARTIAL,
    UNCHANGED,
    UNKNOWN,
    IndexedFile,
    file_state,
    find_in_pdf,
    find_passage,
    is_verbatim,
    locate,
)
from desktop_rag.engine.document.pdf_render import PdfFile
from desktop_rag.engine.ingest.chunking import chunk_document, document_text
from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.ingest.scanning import file_sha256
from desktop_rag.engine.store.values import Hit
from tests.data.make_fixtures import PDF_PAGES, build_pdf
from tests.support.pdf_build import standard_pdf


def _indexed(path: Path) -> IndexedFile:
    st = path.stat()
    return IndexedFile(st.st_size, st.st_mtime_ns, file_sha256(str(path)))


def _hits(path: Path, size: int = 80, overlap: int = 10) -> list[Hit]:
    """The chunks the indexer would store for `path`, as hits."""
    doc = load(path, max_bytes=0)
    return [Hit(i, 1.0, str(path), c.page, c.heading, c.text, char_start=c.char_start, char_end=c.char_end)
            for i, c in enumerate(chunk_document(doc, size, overlap))]


def test_file_state_fast_path_hash_and_missing(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("one two three", encoding="utf-8")
    indexed = _indexed(path)
    assert file_state(path, indexed) == UNCHANGED
    os.utime(path, ns=(indexed.mtime_ns + 5_000_000_000,) * 2)  # touched, same bytes: the hash says unchanged
    assert file_state(path, indexed) == UNCHANGED
    path.write_text("one two four!", encoding="utf-8")  # same size, new content
    assert path.stat().st_size == indexed.size and file_state(path, indexed) == CHANGED
    assert file_state(path, None) == UNKNOWN
    path.unlink()
    assert file_state(path, indexed) == MISSING


def test_find_passage_ignores_whitespace_hyphenation_and_case_but_not_words():
    page = "Intro line\r\nThe quick brown fox jumps over\r\nthe lazy dog. This is an exam-\r\nple of a word."
    start, end, how = find_passage(page, "The quick brown fox jumps over the lazy dog. This is an example of a word.")
    assert how == MATCHED and page[start:end].startswith("The quick") and page[start:end].endswith("word.")
    assert find_passage(page, "Intro line")[2] == EXACT
    assert find_passage(page, "The quick brown cat jumps") is None
    assert find_passage(page, "   ") is None
    # CJK: line breaks inside a sentence disappear at indexing time
    zh = "第一段。\n绿茶应该用八十度\n左右的水冲泡。"
    s, e, how = find_passage(zh, "绿茶应该用八十度左右的水冲泡。")
    assert how == MATCHED and zh[s:e] == "绿茶应该用八十度\n左右的水冲泡。"


def test_find_passage_prefers_the_occurrence_nearest_the_stored_offset():
    text = "repeat me. " * 3 + "middle. " + "repeat me. " * 3
    near = text.rindex("repeat me.")
    assert find_passage(text, "repeat me.", near)[0] == near
    assert find_passage(text, "repeat me.", 0)[0] == 0


def test_find_passage_by_anchors_when_the_middle_differs():
    passage = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar "
               "papa quebec romeo sierra tango uniform victor whiskey xray")
    text = "Before. " + passage.replace("mike november", "[figure 3]") + " After."
    start, end, how = find_passage(text, passage)
    assert how == PARTIAL and text[start:end].startswith("alpha") and text[start:end].endswith("xray")


def test_every_chunk_of_a_text_document_is_exact_then_relocated_after_an_edit(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# Title\n\nFirst paragraph about apples and pears.\n\n## Part\n\nSecond paragraph about "
                    "plums, cherries and the orchard in spring.\n", encoding="utf-8")
    hits = _hits(path)
    indexed = _indexed(path)
    for hit in hits:
        loc = locate(hit, indexed)
        assert (loc.file_state, loc.match) == (UNCHANGED, EXACT)
        assert loc.text[loc.start:loc.end] == hit.text == document_text(load(path, max_bytes=0))[hit.char_start:hit.char_end]
    # An edit above the passage moves it: still found (at its new offsets), and the file is said to have changed.
    path.write_text("# Title\n\nA new opening paragraph.\n\n" + path.read_text(encoding="utf-8")[len("# Title\n\n"):],
                    encoding="utf-8")
    target = next(h for h in hits if "plums" in h.text)
    loc = locate(target, indexed)
    assert loc.file_state == CHANGED and loc.found and loc.start > target.char_start
    assert loc.text[loc.start:loc.end] == target.text
    # The passage removed: not found, nothing to highlight.
    path.write_text("# Title\n\nNothing left.\n", encoding="utf-8")
    loc = locate(target, indexed)
    assert loc.file_state == CHANGED and loc.match == NOT_FOUND and loc.start == loc.end == 0


def test_every_chunk_of_the_fixture_pdf_is_found_on_its_page_with_boxes_over_its_text(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(build_pdf(PDF_PAGES))
    pdf = PdfFile(path)
    try:
        for hit in _hits(path, size=60, overlap=10):  # cleaned text: joined lines, "exam-ple" -> "example"
            loc = locate(hit, _indexed(path), pdf=pdf)
            assert loc.found and loc.page == hit.page and loc.rects, hit.text
            boxes = pdf.char_boxes(loc.page - 1, loc.start, loc.end)
            assert all(any(r[0] < b[2] and b[0] < r[2] and r[1] < b[3] and b[1] < r[3] for r in loc.rects)
                       for b in boxes)
            page_text = pdf.page_text(loc.page - 1)
            assert "".join(page_text[loc.start:loc.end].split()).replace("\x02", "") .startswith(
                "".join(hit.text.split())[:10])
    finally:
        pdf.close()


def test_a_passage_cited_on_the_wrong_page_is_found_on_its_real_page(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(build_pdf(PDF_PAGES))
    hit = Hit(1, 1.0, str(path), 1, "", "If the widget hums, restart it.")
    loc = locate(hit, _indexed(path))
    assert loc.page == 3 and loc.found and loc.page_count == 3


def test_a_broken_pdf_gives_a_reason_not_an_exception(tmp_path):
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nnot really a pdf\n")
    loc = locate(Hit(1, 1.0, str(path), 1, "", "anything"), None)
    assert loc.error and not loc.found


def test_render_and_find_in_pdf(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(build_pdf(PDF_PAGES))
    pdf = PdfFile(path)
    try:
        image = pdf.render(0, 2.0)
        assert (image.width, image.height) == (1224, 1584) and len(image.data) == image.stride * image.height
        assert len(set(image.data[::4096])) > 1  # not a blank page
        first = find_in_pdf(pdf, "WIDGET", 0, -1)
        assert first[0] == 0 and first[3]
        pages = [first[0]]
        found = first
        for _ in range(3):
            found = find_in_pdf(pdf, "widget", found[0], found[1])
            pages.append(found[0])
        assert pages == [0, 0, 2, 0]  # page 1 has two, page 3 one, then it wraps around
        assert find_in_pdf(pdf, "zebra", 0, -1) is None
    finally:
        pdf.close()


@pytest.mark.parametrize("question, texts", [
    ("How hot should the water be for green tea?",
     ["Green tea is brewed\nwith water at about 80 °C.  Hotter water makes it bitter.",
      "Black tea takes boiling water. Steep it for\nfour minutes."]),
    ("绿茶用多少度的水？", ["冲泡绿茶的水温一般在八十度\n左右。水温过高会把嫩芽烫熟。", "红茶用沸水。"]),
])
def test_extractive_answers_quote_only_sentences_that_are_in_their_passage(question, texts):
    hits = [Hit(i, 1.0, f"/x/{i}.txt", None, "", t) for i, t in enumerate(texts)]
    answer = extractive_answer(question, hits)
    lines = [ln for ln in answer.splitlines() if ln.startswith("- ")]
    assert lines
    for line in lines:
        body, _, cite = line[2:].rpartition(" [")
        sentence = body.replace("\\", "")
        source = hits[int(cite.rstrip("]")) - 1].text
        assert is_verbatim(sentence, source), (sentence, source)


def test_find_in_pdf_is_caseless_as_text_find_is(tmp_path):
    """"STRASSE" finds "Straße" on a page: its span is the page's six characters, rectangles and all."""
    path = tmp_path / "strasse.pdf"
    path.write_bytes(standard_pdf([["Die Strasse am Hafen."], ["Die Straße am Meer, die STRASSE."]]))
    pdf = PdfFile(path)
    try:
        page, start, end, rects = find_in_pdf(pdf, "straße", 0, 4)  # after the first page's match: on to page 2
        text = pdf.page_text(1)
        assert (page, text[start:end]) == (1, "Straße") and rects
        page, start, end, _ = find_in_pdf(pdf, "STRASSE", page, start)
        assert (page, text[start:end]) == (1, "STRASSE")
        page, start, end, _ = find_in_pdf(pdf, "strasse", page, start, forward=False)
        assert (page, text[start:end]) == (1, "Straße")
    finally:
        pdf.close()
