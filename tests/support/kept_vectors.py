"""An edit of one paragraph of a long file, indexed through the real bundled model with every passage the model is
asked to embed counted at the Embedder boundary (tests/engine/test_kept_vectors.py on SQLite,
tests/postgres/test_kept_vectors.py on a server: the same scenario)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from desktop_rag.config import BUNDLED_MODEL, Settings
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.models.embedding import embedding_text
from tests.support.watched_embedder import Watched

SETTINGS = Settings(embedding_model=BUNDLED_MODEL, chunk_size=400, chunk_overlap=0)  # a paragraph a chunk
PARAGRAPHS = [
    "Green tea is best brewed with water at about eighty degrees, never boiling, for two minutes at most.",
    "The office moves to the north building in March; the old parking permits stay valid until April.",
    "Expense reports are filed within thirty days of travel, with every receipt scanned as a PDF file.",
    "The quarterly budget review compares planned spending with actual spending for each department.",
    "Backups of the shared drive run every night at two o'clock and are kept for ninety days.",
    "A French press needs coarse ground coffee and four minutes of steeping before the plunger goes down.",
    "New employees receive a laptop, a badge and a mentor during their first week at the company.",
    "The library of the city lends books for three weeks and charges no fee for a late return.",
    "Solar panels on the roof produce most of their power between ten in the morning and three.",
    "The football team trains on Tuesday and Thursday evenings on the grass pitch behind the school.",
    "Passwords must be changed every six months and may not repeat any of the last five passwords.",
    "The bakery sells sourdough bread on weekends, baked with flour from a mill in the valley.",
]
CHANGED = 4  # the paragraph the edit rewrites
NEW_TEXT = "Zebras migrate across the savanna in great herds, following the rains to fresh grazing land."


def write(path: Path, paragraphs: list[str], heading: str = "Notes of the team", encoding: str = "utf-8") -> None:
    """A Markdown file of `paragraphs` under one heading, each padded to one chunk of its own."""
    body = "\n\n".join(f"{p} {p} {p}" for p in paragraphs)
    path.write_text(f"# {heading}\n\n{body}\n", encoding=encoding)


def watch(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Every passage each model is asked to embed, by model id (queries are not passages: not counted)."""
    from desktop_rag.engine import runtime
    from desktop_rag.engine.models.embedding import create_embedder

    seen: dict[str, list[str]] = {}

    def create(model_id: str, *args, **kwargs):
        return Watched(create_embedder(model_id, *args, **kwargs),
                       lambda texts: seen.setdefault(model_id, []).extend(texts))

    monkeypatch.setattr(runtime, "create_embedder", create)
    return seen


def chunks(engine: Engine) -> list[tuple[int, str, str]]:
    """(id, heading, text) of every chunk, by id."""
    return [tuple(r) for r in engine.store.db.execute("SELECT id, heading, text FROM chunks ORDER BY id")]


def assert_vectors_of(engine: Engine, model_id: str) -> None:
    """Every chunk has a vector, and it is `model_id`'s embedding of the chunk's text (nothing mixed, nothing
    attached to another chunk's text)."""
    rows = chunks(engine)
    stored = engine.store.stored_vectors([r[0] for r in rows])
    assert sorted(stored) == [r[0] for r in rows]
    model = engine.runtime.embedder(model_id)
    fresh = getattr(model, "inner", model).embed([embedding_text(h, t) for _, h, t in rows])
    similarity = np.sum(np.stack([stored[r[0]] for r in rows]) * fresh, axis=1)
    # the model's quantised runtime gives a text a slightly other vector in another batch (0.997); another text's
    # vector, or another model's, is far below
    assert similarity.min() > 0.99, similarity


def dense_top(engine: Engine, question: str) -> str:
    """The text of the chunk the vectors alone put first for `question` (the FAISS cache, or the server's index)."""
    model = engine.runtime.embedder(engine.store.get_meta("embedding_model"))
    query = getattr(model, "inner", model).embed_queries([question])[0]
    best = engine.runtime.vectors().nearest(engine.store, query, 1)
    return engine.store.hits_for(best)[0].text if best else ""


def edit_one_paragraph(engine: Engine, folder: Path, seen: dict[str, list[str]],
                       checks: Callable[[Engine], None] = lambda _e: None) -> None:
    """Index the file, rewrite one paragraph, index again: only that paragraph's passage is embedded again, the
    search finds the unchanged passages and the new one, every vector is its text's."""
    doc = folder / "notes.md"
    write(doc, PARAGRAPHS)
    first = engine.index([folder])
    assert first.added == 1 and not first.failed and first.chunks == len(PARAGRAPHS) and first.kept == 0
    assert len(seen[BUNDLED_MODEL]) == first.embedded == len(PARAGRAPHS)
    before = chunks(engine)
    seen.clear()

    edited = list(PARAGRAPHS)
    edited[CHANGED] = NEW_TEXT
    write(doc, edited)
    second = engine.index()
    assert second.updated == 1 and not second.failed and second.chunks == len(PARAGRAPHS)
    embedded = seen.get(BUNDLED_MODEL, [])
    assert second.embedded == len(embedded) == 1 and NEW_TEXT in embedded[0]
    assert second.kept == second.to_json()["kept"] == len(PARAGRAPHS) - 1  # what the report says reuse saved
    after = chunks(engine)
    assert not {r[0] for r in after} & {r[0] for r in before}  # new ids: an id names one text at one place
    assert engine.status().chunks_pending_embedding == 0
    for text in (PARAGRAPHS[1], PARAGRAPHS[8], NEW_TEXT):
        hits = engine.search(text, 3)
        assert hits and text in hits[0].text, (text, [h.text[:40] for h in hits])
        assert text in dense_top(engine, text)
    assert_vectors_of(engine, BUNDLED_MODEL)
    checks(engine)


def switch_half_staged(engine: Engine, open_engine: Callable[[Settings], Engine], folder: Path,
                       seen: dict[str, list[str]]) -> Engine:
    """A switch to e5 stopped half-way (as a cancel leaves it), two paragraphs edited (one among the staged
    passages, one among the others), then the switch resumed by an index run with e5 in the settings: the library's
    model embeds the two changed passages only, e5 the passages not staged before and the changed ones, never a
    staged one again, and every vector ends e5's (MiniLM's and e5's have one dimension: only the values tell them
    apart). Returns the switching engine (the caller closes it)."""
    from desktop_rag.engine.models.e5_conversion import MODEL_ID as E5
    from desktop_rag.engine.store import staged_vectors

    doc = folder / "notes.md"
    write(doc, PARAGRAPHS)
    engine.index([folder])
    rows = chunks(engine)
    half = rows[:len(rows) // 2]
    e5 = engine.runtime.embedder(E5)
    staged_vectors.begin(engine.store, E5)
    staged_vectors.stage(engine.store, E5, [r[0] for r in half],
                         getattr(e5, "inner", e5).embed([embedding_text(h, t) for _, h, t in half]))
    seen.clear()
    edited = list(PARAGRAPHS)
    lighthouse = "Lighthouses guide ships past the rocks with a beam turning every ten seconds."
    edited[1], edited[9] = NEW_TEXT, lighthouse
    assert 1 < len(half) <= 9
    write(doc, edited)

    switching = open_engine(dataclasses.replace(SETTINGS, embedding_model=E5))
    report = switching.index()
    assert report.reembed_remaining == 0 and switching.store.get_meta("embedding_model") == E5
    changed = sorted(embedding_text(h, t) for _, h, t in chunks(switching) if t.startswith((NEW_TEXT, lighthouse)))
    assert sorted(seen[BUNDLED_MODEL]) == changed
    unstaged = [embedding_text(h, t) for _, h, t in rows[len(half):] if not t.startswith(PARAGRAPHS[9])]
    assert sorted(seen[E5]) == sorted(changed + unstaged)
    assert_vectors_of(switching, E5)
    assert switching.status().chunks_pending_embedding == 0
    return switching
