"""The viewer's reader: a cited file read again as it is now in a parser child of the viewer's own.

Reading a file in the app's own process put a replaced or hostile file outside the limits indexing reads it under
(an .rtf of 90 MB took 34 s and 5 GB; a .docx inflating to 185 MB ran past 400 s; an e-mail's scanned attachments
were recognised again to show its body), and every other passage opened meanwhile waited behind it. Here the
file is read as indexing reads it (`ingest.parsing.SafeParser`: the same memory cap and text cap) under a time
budget of at most VIEW_TIMEOUT_S, without OCR (a picture's text is never read again to be shown), and a newer
passage cancels the read under way. Indexing has its own child: neither waits on the other.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.ingest.loaders.blocks import TABLE_CHARS
from desktop_rag.engine.ingest.parsing import SafeParser

if TYPE_CHECKING:
    from desktop_rag.config import Settings

VIEW_TIMEOUT_S = 30.0  # a person waits for a passage this long at most; the library's stored text then


class Rereader:
    """Reads cited files again for the viewer (and for `locate` when its caller gives no reader), in a child process
    started on first use; `close` ends it."""

    def __init__(self, init_hook: str | None = None, max_bytes: int = 0, table_chars: int = TABLE_CHARS) -> None:
        """`init_hook`: as SafeParser's (tests: a reader that hangs); until `configure`: files of at most `max_bytes`
        (0: any size), tables in row groups of `table_chars`, VIEW_TIMEOUT_S, no OCR."""
        self.parser = SafeParser(VIEW_TIMEOUT_S, max_bytes, init_hook=init_hook, ocr=False)
        self.parser.table_chars = table_chars

    def configure(self, settings: Settings) -> None:
        """The library's limits (file size, chunk size), its time budget but at most VIEW_TIMEOUT_S, no OCR."""
        self.parser.configure(settings.replace(ocr_enabled=False,
                                               parse_timeout_s=min(settings.parse_timeout_s, VIEW_TIMEOUT_S)))

    def read(self, path: str | Path, part: str = "", cancel: threading.Event | None = None) -> ParsedDocument:
        """The document at `path` (`part`: the e-mail attachment there), or LoadError with why it could not be read
        (a time-out, the memory cap, too much text); ParseCancelled once `cancel` is set."""
        return self.parser.parse(path, part=part, cancel=cancel)

    def close(self) -> None:
        self.parser.close()
