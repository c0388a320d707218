"""The viewer's locating, on its locate thread: a cited passage in its file as it is now (or in the library's stored
text when the file is gone, not on this computer, or cannot be read now), and the part of a text document shown."""

from __future__ import annotations

import os
from dataclasses import replace

from desktop_rag.engine import (MISSING, Carrier, Hit, IndexedFile, Location, PdfPages, Reader, is_paged, locate,
                                open_pdf)
from desktop_rag.gui.table_grid import GridText, grid_text
from desktop_rag.gui.text_window import TextWindow, text_window

Shown = tuple[TextWindow, GridText]  # the part of a text document shown (a long one's window), its tables as grids


def shown_text(location: Location) -> Shown:
    """On the locate thread: what the text pane lays out of `location`'s text, the passage's window, as grids."""
    return shown_around(location.text, *((location.start, location.end) if location.found else (0, 0)))


def shown_around(text: str, start: int, end: int) -> Shown:
    """Off the GUI thread: the window of `text` laid out around `start:end` (a passage, a match found), as grids."""
    window = text_window(text, start, end)
    return window, grid_text(window.shown)


def _indexed(record) -> IndexedFile | None:
    return IndexedFile(record.size, record.mtime_ns, record.sha256) if record is not None else None


def locate_passage(engine, hit: Hit, max_bytes: int, read: Reader | None,
                   pages: PdfPages) -> tuple[Location, object]:
    """On the locate thread: the store's record of the file, then the passage in the file as it is now (an
    e-mail's attachment: read from its message; a text document by `read`: the viewer's parser child; a PDF opened
    in `pages`, the viewer's PDFium child); a file that is not on this computer, or that cannot be read now, from
    the library's stored text. A passage not found is `outdated` when the library no longer holds it either."""
    location, pdf = _located(engine, hit, max_bytes, read, pages)
    if location.found or location.error:
        return location, pdf
    return replace(location, outdated=hit.chunk_id not in engine.held_passages((hit,))), pdf


def _located(engine, hit: Hit, max_bytes: int, read: Reader | None, pages: PdfPages | None) -> tuple[Location, object]:
    record, linked = engine.indexed_file(hit.path)
    indexed = _indexed(record)
    if not linked:  # another computer's source (a shared library), an archive's: nothing is read at its path
        return engine.stored_location(hit), None
    holder = engine.carrier(hit.path)
    carrier = Carrier(holder.path, _indexed(holder)) if holder is not None else None
    pdf = None
    if is_paged(hit.path) and os.path.isfile(carrier.path if carrier else hit.path):
        from desktop_rag.engine import LoadError

        try:
            pdf = open_pdf(hit.path, carrier, max_bytes, pages)
        except LoadError:  # opens it again, reports the reason
            return _stored_if_unread(engine, hit, locate(hit, indexed, max_bytes=max_bytes, carrier=carrier,
                                                         pages=pages)), None
    try:
        location = locate(hit, indexed, max_bytes=max_bytes, pdf=pdf, table_chars=engine.settings.chunk_size,
                          carrier=carrier, read=read, lines=engine.recognised_lines(hit) if pdf is not None else ())
    except BaseException:
        if pdf is not None:
            pdf.close()
        raise
    if location.file_state == MISSING or location.from_library:  # moved or deleted since it was indexed, or its
        return _stored_instead(engine, hit, location), pdf  # text recognised from pictures: the library's stored text
    return _stored_if_unread(engine, hit, location), pdf


def _stored_if_unread(engine, hit: Hit, location: Location) -> Location:
    """A file that cannot be read now (a time-out, the memory cap, damaged since) shown from the library's stored
    text, why kept for the banner; `location` (its error shown) when the library does not hold it any more."""
    if not location.error:
        return location
    stored = _stored_instead(engine, hit, replace(location, unread=location.error))
    return location if stored.error else stored


def _stored_instead(engine, hit: Hit, location: Location) -> Location:
    """A file gone from this computer or whose text was recognised from pictures, shown from the text the library
    stored (its file state kept, so the banner says why); `location` as it is when the library no longer holds the
    file either."""
    from desktop_rag.engine import UsageError

    try:
        return replace(engine.stored_location(hit), file_state=location.file_state, carrier=location.carrier,
                       from_library=location.from_library, unread=location.unread)
    except UsageError:
        return location
