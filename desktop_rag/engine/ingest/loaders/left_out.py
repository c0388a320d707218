"""Read what can be read: a part of a file its reader could not read (a slide, a shape, a table, a sheet, a chapter,
a message, a page) is left out, the rest of the file is indexed, and the file's note names what was left out.

A reader wraps each part in `LeftOut.part(kind, name)`; an exception raised inside (a library's error on one odd
part: python-pptx's AttributeError on a picture in a title placeholder, a sheet calamine cannot decode, a chapter
nested too deep) is logged and the part's name kept for the note. Errors that concern the whole file or the
process pass: MemoryError, RecursionError (the parser child reports them), and `PASS_THROUGH`. The notes are the
texts "note.left_out.<kind>" (English and Chinese), each naming at most MAX_NAMED parts; numbers are listed as
ranges ("3, 5-9").
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from desktop_rag.engine.errors import PASS_THROUGH, LoadError
from desktop_rag.engine.messages import Phrase

log = logging.getLogger(__name__)

KINDS = ("page", "slide", "shape", "table", "sheet", "chapter", "message")
MAX_NAMED = 10
_PASS = (MemoryError, RecursionError, *PASS_THROUGH)


def listed(names: Iterable[object]) -> str:
    """Names for a note: runs of consecutive numbers as ranges ("3, 5-9"), at most MAX_NAMED items, "…" after."""
    items: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            items.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run.clear()

    for name in names:
        if isinstance(name, int):
            if run and name != run[-1] + 1:
                flush()
            run.append(name)
        else:
            flush()
            items.append(str(name))
    flush()
    return ", ".join(items[:MAX_NAMED]) + (", …" if len(items) > MAX_NAMED else "")


class LeftOut:
    """The parts of one file left out, by kind, in the order met."""

    def __init__(self) -> None:
        self.parts: dict[str, list[object]] = {}
        self.first_error: BaseException | None = None

    def add(self, kind: str, name: object) -> None:
        if kind not in KINDS:
            raise ValueError(kind)
        names = self.parts.setdefault(kind, [])
        if name not in names:
            names.append(name)

    @contextmanager
    def part(self, kind: str, name: object, passing: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
        """Read one part inside this block: whatever it raises (but `_PASS` and `passing`: a LoadError for a
        limit of the whole file) leaves it out, named."""
        try:
            yield
        except (*_PASS, *passing):
            raise
        except Exception as exc:  # noqa: BLE001 - one part of the file, whatever its library raised
            self.failed(kind, name, exc)

    def failed(self, kind: str, name: object, exc: BaseException) -> None:
        """Part `name` raised `exc`: it is left out."""
        log.info("Left out %s %s: %s: %s", kind, name, type(exc).__name__, exc)
        self.first_error = self.first_error or exc
        self.add(kind, name)

    def failure(self) -> LoadError | None:
        """When nothing of the file could be read: the first part's reason if it was a LoadError (a chapter nested
        too deep says so), else None (the reader says the file is damaged)."""
        return self.first_error if isinstance(self.first_error, LoadError) else None

    def notes(self) -> tuple[Phrase, ...]:
        """One note per kind (stored with the file as its reason's parts, shown in the person's language)."""
        return tuple(Phrase(f"note.left_out.{kind}", names=listed(self.parts[kind])) for kind in KINDS
                     if kind in self.parts)
