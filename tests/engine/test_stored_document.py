"""A document opened from the library's stored text (`Engine.stored_location`, document/stored.py): what the viewer
shows for a file that is not on this computer. Its passages are joined without the chunking overlap, the cited one is
found in that text at its place, with its focus; the file at the path is never read."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import STORED, Engine
from desktop_rag.engine.document.locate import EXACT

# The hashing embedder: this is about text and offsets, not meaning.
FAST = Settings(embedding_model="hash:64", chunk_size=300, chunk_overlap=60)


def test_a_passage_is_found_in_its_documents_stored_text(tmp_path: Path):
    sentences = [f"Sentence {i} tells how the heron number {i} fishes in the quiet northern lake." for i in range(40)]
    document = tmp_path / "docs" / "herons.txt"
    document.parent.mkdir()
    document.write_text(" ".join(sentences), encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), FAST)
    try:
        engine.index([document.parent])
        hits = [h for h in engine.search("heron number 27 fishes", 20) if h.char_start > 0]
        assert len({h.chunk_id for h in engine.search("heron lake", 50)}) > 3  # several overlapping chunks
        hit = hits[0]
        span = hit.text.index(f"Sentence {hit.text.split('Sentence ')[1].split()[0]}")
        hit = dataclasses.replace(hit, focus=((span, span + 20),))
        document.write_text("Rewritten here: nothing of the indexed text.", encoding="utf-8")
        location = engine.stored_location(hit)
    finally:
        engine.close()
    assert location.file_state == STORED and location.kind == "text" and location.match == EXACT
    assert location.text == " ".join(sentences)  # the overlap left out: the document as it was indexed
    assert location.text[location.start:location.end] == hit.text
    assert [location.text[a:b] for a, b in location.focus] == [hit.text[span:span + 20]]
