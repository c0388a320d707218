"""A cited passage's chunks as `given_passages.inside` reads them (one place: a chunk, neighbours merged into it, a
page's section of many, the whole document), on either backend: the same rows as a read to the end of the file's
index, with the range it reads bounded on the index (the plan says so) instead of running to the file's end."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.given_passages import inside
from desktop_rag.engine.store.values import Hit
from tests.support.long_document import write_long_pdf

_UNBOUNDED = ("SELECT id, heading, text, page, char_start, char_end, ordinal FROM chunks "
              "WHERE file_id = ? AND ordinal >= ? AND char_start >= ? AND char_end <= ? ORDER BY ordinal")


class _Statements:
    """A store whose connection notes the statements run through it (the real connection runs them)."""

    def __init__(self, store) -> None:
        self.store, self.seen = store, []

    @property
    def db(self) -> "_Statements":
        return self

    def execute(self, sql: str, args=()):
        self.seen.append((sql, list(args)))
        return self.store.db.execute(sql, args)


def places_read_alike(engine: Engine, folder: Path, explain: str) -> int:
    """Index an 8-page report; every place of 1 to 3 chunks, each page's and the whole document's read as before;
    `explain` (the backend's EXPLAIN keyword) shows the ordinal bounded above in the index's range. Returns how many
    places were compared."""
    engine.index([write_long_pdf(folder / "report.pdf", pages=8)])
    store = engine.store
    rows = store.db.execute("SELECT id, file_id, ordinal, char_start, char_end, page FROM chunks "
                            "ORDER BY ordinal").fetchall()
    assert len(rows) > 20 and len({r[1] for r in rows}) == 1
    spans = [(i, j) for i in range(len(rows)) for j in range(i, min(i + 3, len(rows)))]
    pages = sorted({r[5] for r in rows})
    spans += [(min(k for k, r in enumerate(rows) if r[5] == p), max(k for k, r in enumerate(rows) if r[5] == p))
              for p in pages] + [(0, len(rows) - 1)]
    for i, j in spans:
        first, last = rows[i], rows[j]
        hit = Hit(first[0], 0.0, "", first[5], "", "", first[1], first[2], first[3], last[4])
        expected = store.db.execute(_UNBOUNDED, (first[1], first[2], first[3], last[4])).fetchall()
        assert [tuple(r) for r in inside(store, hit)] == [tuple(r) for r in expected], (i, j)
        assert [r[0] for r in expected] == [r[0] for r in rows[i:j + 1]]
    noted = _Statements(store)
    inside(noted, Hit(rows[0][0], 0.0, "", rows[0][5], "", "", rows[0][1], rows[0][2], rows[0][3], rows[0][4]))
    (sql, args), = noted.seen
    plan = "\n".join(" ".join(str(c) for c in r) for r in store.db.execute(f"{explain} {sql}", args).fetchall())
    assert "ordinal<" in plan.replace(" ", "") and "chunks_file" in plan, plan
    return len(spans)
