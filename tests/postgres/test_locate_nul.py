"""The viewer finds a passage whose stored text differs from its file's by a NUL character (PostgreSQL stores it as
U+FFFD, `Store.stored_text`; a file read again still holds it): a CSV cell holding one, the passages under a
Markdown heading holding one. Found at its stored offsets, EXACT (the file's text compared as the library stores
it, `store.values.nul_replaced`: no search of a multi-MB file), its focus highlighted: no banner. A real PostgreSQL; the viewer's own locating (`viewer_locate`)."""

from __future__ import annotations

import dataclasses

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.document.locate import EXACT
from desktop_rag.engine.engine import Engine
from desktop_rag.gui.controllers.viewer_locate import locate_passage
from tests.support.kept_vectors import PARAGRAPHS, write


def test_passages_whose_file_holds_a_nul_character_are_found_and_highlighted(pg_library, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    write(folder / "notes.md", PARAGRAPHS, "Notes\x00of the team", "utf-16")
    (folder / "sheet.csv").write_text("name,value\ntea\x00green,eighty degrees water\n", encoding="utf-16")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"), library=pg_library)
    try:
        engine.index([folder])
        hits = [hit for hit in engine.search("green tea eighty degrees water team", k=30)]
        stored = [hit for hit in hits if "\ufffd" in hit.text + hit.heading]
        assert {hit.path.rsplit("/", 1)[1] for hit in stored} == {"notes.md", "sheet.csv"}
        for hit in stored:
            word = "tea\ufffdgreen" if hit.path.endswith(".csv") else hit.text.split()[-1]
            at = hit.text.index(word)
            location, _pdf = locate_passage(engine, dataclasses.replace(hit, focus=((at, at + len(word)),)),
                                            50_000_000, None, None)
            assert location.match == EXACT and not location.error, (hit.path, location.match)
            shown = location.text[location.start:location.end]
            assert shown.replace("\x00", "\ufffd") == hit.text
            assert [location.text[a:b].replace("\x00", "\ufffd") for a, b in location.focus] == [word]
    finally:
        engine.close()
