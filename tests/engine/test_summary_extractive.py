"""The summary without a model (issue 40): the document's most central sentences by the library's embedding model
(the bundled MiniLM, real), kept in reading order, covering each top-level section, longer for a longer document,
cited by section and marked extractive in the document's language; a long document's cost stays bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import BUNDLED_MODEL, Settings, resolve_paths
from desktop_rag.engine.answer import summary_extractive
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.messages import message
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent

TOPICS = {
    "Brewing coffee": "Coffee {n} is brewed with water just off the boil, and the grind decides how fast it extracts.",
    "Growing tomatoes": "Tomato plants {n} need full sun, deep watering and a stake as the fruit grows heavy.",
    "Repairing bicycles": "A bicycle chain {n} is cleaned, oiled and checked for stretch before a long ride.",
    "Saving money": "A household budget {n} sets aside savings first and tracks every monthly expense.",
    "Training dogs": "A young dog {n} learns to sit and stay with short sessions and a treat as reward.",
}
OUTLIER = "Quantum chromodynamics on a lattice needs supercomputers to compute hadron masses."


def _document(sentences_per_part: int) -> str:
    parts = []
    for title, sentence in TOPICS.items():
        body = [sentence.format(n=n) for n in range(sentences_per_part)]
        body.insert(sentences_per_part // 2, OUTLIER)  # off-topic in every part: never the most central
        parts.append(f"# {title}\n\n## Notes\n\n" + " ".join(body))
    return "\n\n".join(parts) + "\n"


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    root = tmp_path_factory.mktemp("extractive")
    docs = root / "docs"
    docs.mkdir()
    (docs / "short.md").write_text(_document(6), "utf-8")
    (docs / "long.md").write_text(_document(30), "utf-8")
    (docs / "茶.md").write_text("# 绿茶\n\n" + "绿茶用八十度左右的水冲泡，浸泡两到三分钟。" * 8 + "\n\n# 红茶\n\n"
                               + "红茶需要沸水冲泡，时间三到五分钟为宜。" * 8, "utf-8")
    engine = Engine(resolve_paths(root / "home"), Settings(embedding_model=BUNDLED_MODEL, chunk_size=400))
    engine.index([docs])
    yield engine, docs
    engine.close()


def _summary(engine, path: Path):
    events = list(engine.summarise(path))
    sources = next(e for e in events if isinstance(e, SourcesEvent)).hits
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.mode == "extractive"
    lines = [line for line in done.answer.splitlines() if line.strip()]
    return lines, sources, done


def test_central_sentences_in_reading_order_covering_every_top_level_section(engine):
    engine, docs = engine
    text = (docs / "long.md").read_text("utf-8")
    lines, sources, done = _summary(engine, docs / "long.md")
    assert done.notice == message("summary_extractive", "en")
    sentences = [line[2:line.rindex(" [")] for line in lines]
    positions = [text.index(s) for s in sentences]  # each is a sentence of the document, word for word
    assert positions == sorted(positions)
    for title in TOPICS:  # every top-level section speaks
        start = text.index(f"# {title}")
        end = min([text.index(f"# {t}") for t in TOPICS if text.index(f"# {t}") > start] + [len(text)])
        assert any(start < p < end for p in positions), title
    assert OUTLIER not in sentences
    for line, position in zip(lines, positions, strict=True):  # cited: the section that holds the sentence
        number = int(line[line.rindex("[") + 1:-1])
        assert text.index(sources[number - 1].text[:40]) <= position
    assert {h.path for h in done.cited} == {str(docs / "long.md")}


def test_the_length_follows_the_document(engine):
    engine, docs = engine
    short, _, _ = _summary(engine, docs / "short.md")
    long, _, _ = _summary(engine, docs / "long.md")
    assert len(TOPICS) <= len(short) < len(long) <= summary_extractive.MAX_SENTENCES


def test_a_chinese_document_is_marked_in_chinese(engine):
    engine, docs = engine
    lines, _, done = _summary(engine, docs / "茶.md")
    assert done.notice == message("summary_extractive", "zh")
    assert any("绿茶" in line for line in lines) and any("红茶" in line for line in lines)


def test_a_long_document_embeds_a_bounded_number_of_sentences(engine, monkeypatch):
    engine, docs = engine
    monkeypatch.setattr(summary_extractive, "MAX_EMBEDDED", 40)
    seen: list[int] = []
    real = engine.runtime.embedder().embed
    monkeypatch.setattr(engine.runtime.embedder(), "embed", lambda texts: seen.append(len(texts)) or real(texts))
    lines, _, _ = _summary(engine, docs / "long.md")
    assert sum(seen) <= 40 and len(lines) >= len(TOPICS)  # stored chunk vectors narrowed it; still every part
