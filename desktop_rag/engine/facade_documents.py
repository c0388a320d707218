"""The facade's reads of the library's documents (engine.py's `Engine` is one): the files it holds, a file's stored
record and whether it is linked to this computer, the cited passages it still holds, a scanned passage's recognised
lines, a document's stored text, an attachment's carrier; what the viewer and the library panel ask. Each method
delegates to the store's modules."""

from __future__ import annotations

from collections.abc import Sequence

from desktop_rag.engine.document.locate import Location
from desktop_rag.engine.store import ocr_lines, passages
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import FileRecord, Hit, OcrLine


class Documents:
    """What the facade reads of the library's documents (the Engine supplies `store`)."""

    store: Store

    def files(self, source_id: int | None = None) -> list[FileRecord]:
        return self.store.files(source_id)

    def indexed_file(self, path: str) -> tuple[FileRecord | None, bool]:
        """The library's record of the file at `path` (None: not one) and whether it is linked to this computer
        (False for a file of a source imported without its documents: nothing is read from its path)."""
        return self.store.file_by_path(path), self.store.file_linked(path)

    def held_passages(self, hits: Sequence[Hit]) -> frozenset[int]:
        """The chunk ids of these cited passages the library still holds as they were cited (store/passages.py)."""
        return passages.held(self.store, hits)

    def recognised_lines(self, hit: Hit) -> tuple[OcrLine, ...]:
        """The lines OCR read on `hit`'s scanned page that hold its passage (store/ocr_lines.py), while the library
        holds the passage as it was cited (its file not indexed again since); () for any other passage. The lines
        are read before that check: a re-read committed between the two reads gives none, never its new lines."""
        if not hit.ocr or hit.page is None:
            return ()
        lines = ocr_lines.lines_of(self.store, hit.path, hit.page, hit.char_start, hit.char_end)
        return lines if hit.chunk_id in passages.held(self.store, (hit,)) else ()

    def stored_location(self, hit: Hit) -> Location:
        """`hit` in its document's stored text (document/stored.py): the viewer's for a file not on this computer."""
        from desktop_rag.engine.answer.summary_sections import document_chunks
        from desktop_rag.engine.document.stored import stored_location

        return stored_location(hit, document_chunks(self.store, hit.path))

    def carrier(self, path: str) -> FileRecord | None:
        """The record of the file that carries the document at `path` (an e-mail, for its attachment), or None
        when `path` is a file of its own."""
        return self.store.carrier(path)
