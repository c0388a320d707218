"""A document as the library stored it: its passages joined in reading order. What the viewer shows for a file that is
not on this computer (a source another computer added to a shared library, or one imported from an archive without
its documents), and what a summary reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from desktop_rag.engine.document.locate import NOT_FOUND, STORED, Location, find_passage, focus_in
from desktop_rag.engine.store.values import Hit


def joined(chunks: Sequence[Hit]) -> str:
    """The chunks' text as one, each overlap with the previous chunk left out (offsets index the document)."""
    parts: list[str] = []
    end = None
    for chunk in chunks:
        if end is not None and chunk.char_start < end:
            parts.append(chunk.text[min(end - chunk.char_start, len(chunk.text)):])
        else:
            parts.append(("\n\n" if parts else "") + chunk.text)
        end = max(end or 0, chunk.char_end)
    return "".join(parts)


def stored_location(hit: Hit, chunks: Sequence[Hit]) -> Location:
    """`hit` in its document's stored text (`chunks`: the file's passages in reading order): a text location whose
    state is STORED, the passage found in it (near its stored offset) with its focus."""
    text = joined(chunks)
    base = Location(hit.path, "text", STORED, NOT_FOUND, page=hit.page, passage=hit.text, text=text)
    found = find_passage(text, hit.text, hit.char_start)
    if found is None:
        return base
    start, end, how = found
    return replace(base, match=how, start=start, end=end, focus=focus_in(text, start, end, hit))
