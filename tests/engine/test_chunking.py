"""Chunking: exact offsets, size bounds, overlap, section boundaries and speed."""

from __future__ import annotations

import random
import time

import pytest

from desktop_rag.engine.ingest.chunking import chunk_document, document_text, split_text
from desktop_rag.engine.ingest.documents import ParsedDocument, Section

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu retrieval index".split()
ZH = ["知识库", "可以", "回答", "关于", "文档", "的", "问题", "检索", "系统", "本地", "运行", "中文", "分块"]


def _english(rng: random.Random, paragraphs: int) -> str:
    def sentence() -> str:
        words = [rng.choice(WORDS) for _ in range(rng.randint(4, 25))]
        return " ".join(words).capitalize() + rng.choice([".", "!", "?", ", and", ";"])

    return "\n\n".join(" ".join(sentence() for _ in range(rng.randint(1, 8))) for _ in range(paragraphs))


def _chinese(rng: random.Random, paragraphs: int) -> str:
    def sentence() -> str:
        return "".join(rng.choice(ZH) for _ in range(rng.randint(3, 30))) + rng.choice("。！？；，")

    return "\n\n".join("".join(sentence() for _ in range(rng.randint(1, 10))) for _ in range(paragraphs))


def _doc(rng: random.Random) -> ParsedDocument:
    sections = []
    for i in range(rng.randint(1, 5)):
        text = _english(rng, rng.randint(1, 6)) if i % 2 else _chinese(rng, rng.randint(1, 6))
        if rng.random() < 0.2:
            text += "\n" + "x" * rng.randint(600, 1500)  # no separators at all
        if rng.random() < 0.2:
            text += "\n" + "无标点的中文" * rng.randint(50, 200)
        sections.append(Section(text=text, page=i + 1, heading_path=("Top", f"Sub {i}")))
    return ParsedDocument(sections=tuple(sections))


@pytest.mark.parametrize("size,overlap", [(500, 50), (200, 30), (100, 0), (60, 20)])
def test_offsets_bounds_and_sections(size: int, overlap: int) -> None:
    rng = random.Random(size * 31 + overlap)
    for _ in range(40):
        doc = _doc(rng)
        text = document_text(doc)
        chunks = chunk_document(doc, size=size, overlap=overlap)
        assert [c.ordinal for c in chunks] == list(range(len(chunks)))
        starts = []
        base = 0
        for s in doc.sections:
            starts.append((base, base + len(s.text), s))
            base += len(s.text) + 2
        for c in chunks:
            assert text[c.char_start : c.char_end] == c.text  # the offset property, strictly
            assert c.text.strip() == c.text and c.text
            assert len(c.text) <= size + overlap
            owner = [s for lo, hi, s in starts if lo <= c.char_start and c.char_end <= hi]
            assert len(owner) == 1  # never spans two sections
            assert c.page == owner[0].page
            assert c.heading == " > ".join(owner[0].heading_path)
        # every non-space character is covered by some chunk
        covered = bytearray(len(text))
        for c in chunks:
            covered[c.char_start : c.char_end] = b"\1" * (c.char_end - c.char_start)
        assert all(covered[i] or text[i].isspace() for i in range(len(text)))


def test_overlap_is_taken_from_the_previous_chunk() -> None:
    text = _english(random.Random(7), 20)
    spans = split_text(text, 300, 50)
    assert len(spans) > 5
    overlaps = [prev_end - start for (_, prev_end), (start, _) in zip(spans, spans[1:])]
    assert all(0 <= o <= 50 for o in overlaps)
    assert sum(1 for o in overlaps if o > 0) >= len(overlaps) // 2
    for (_, prev_end), (start, _) in zip(spans, spans[1:]):
        if start < prev_end:  # English overlap starts at a word boundary
            assert text[start - 1].isspace()
    no_overlap = split_text(text, 300, 0)
    assert all(b[0] >= a[1] for a, b in zip(no_overlap, no_overlap[1:]))


def test_chinese_splits_at_sentence_ends() -> None:
    sentences = ["知识库可以回答关于文档的问题。", "检索系统在本地运行！", "中文分块需要正确处理标点？"] * 6
    text = "".join(sentences)
    spans = split_text(text, 40, 0)
    for start, end in spans:
        assert text[end - 1] in "。！？"
        assert len(text[start:end]) <= 40


def test_paragraph_boundaries_preferred() -> None:
    para = "Word " * 50  # 250 chars
    text = (para.strip() + ".\n\n") * 4
    for start, end in split_text(text, 600, 0):
        assert text[start:end].endswith(".")


def test_short_section_is_one_chunk_and_empty_sections_skipped() -> None:
    doc = ParsedDocument((Section("Hello.", heading_path=("A", "B")), Section("   "), Section("你好。", page=3)))
    chunks = chunk_document(doc)
    assert [(c.text, c.heading, c.page) for c in chunks] == [("Hello.", "A > B", None), ("你好。", "", 3)]
    text = document_text(doc)
    assert [text[c.char_start : c.char_end] for c in chunks] == ["Hello.", "你好。"]


def test_invalid_parameters() -> None:
    with pytest.raises(ValueError):
        split_text("abc", 50, 50)
    with pytest.raises(ValueError):
        split_text("abc", 0, 0)


def test_speed_5000_files() -> None:
    rng = random.Random(3)
    docs = []
    for i in range(5000):
        text = (_english(rng, 6) if i % 2 else _chinese(rng, 6))[:1500]
        docs.append(ParsedDocument((Section(text=text),)))
    t0 = time.perf_counter()
    total = sum(len(chunk_document(d, 500, 50)) for d in docs)
    elapsed = time.perf_counter() - t0
    print(f"chunked 5000 files ({sum(d.char_count for d in docs)} chars) into {total} chunks in {elapsed:.3f} s")
    assert elapsed < 2.0
