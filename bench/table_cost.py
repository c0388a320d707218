"""What a table costs to index: chunks per MB of a spreadsheet or CSV file against prose of the same size, and how
many chunks hold no data cell (issue 50 item 5).

Each file is read by the app's own loader (tables as Markdown row groups, `ingest.tables`) and chunked at the default
chunk size; "before" is the same run with the wide-table layout switched off (every table laid out as a narrow one,
its header repeated in groups of at most the chunk size, as before issue 50). Prose: XQuAD's English and Chinese
paragraphs (the bench cache's xquad-en-docs-flat, ../shared/data/xquad-zh) written as one file each. The test files
are fetched, never committed: frictionless-py's data/issue-811.csv and data/issue-1066.csv
(github.com/frictionlessdata/frictionless-py) and MaxKB's apps/knowledge/template/table_template_zh.xlsx
(github.com/1Panel-dev/MaxKB), copied into the bench cache (`--files` names others).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench.common import CACHE, emit, figure, load_beir

FILES = ("issue-811.csv", "issue-1066.csv", "table_template_zh.xlsx")
CHUNK_SIZE, OVERLAP = 500, 50


def _without_data(text: str, headers: set[str]) -> bool:
    """A chunk whose every line is a rule line or a piece of a header line: no data cell in it."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return all(not set(line) - set("|-: ") or any(line in header for header in headers) for line in lines)


def measure(path: Path, wide: bool) -> dict:
    from desktop_rag.engine.ingest import tables
    from desktop_rag.engine.ingest.chunking import chunk_document
    from desktop_rag.engine.ingest.loaders import LoadContext, load

    saved = tables.WIDE_SHARE
    tables.WIDE_SHARE = saved if wide else 0  # 0: no table is wide (the layout before issue 50)
    try:
        started = time.perf_counter()
        document = load(path, max_bytes=1 << 30, context=LoadContext(table_chars=CHUNK_SIZE))
        chunks = chunk_document(document, CHUNK_SIZE, OVERLAP)
        seconds = time.perf_counter() - started
        headers = {s.text.split("\n", 1)[0] for s in document.sections if s.text.startswith("|")}
    finally:
        tables.WIDE_SHARE = saved
    megabytes = path.stat().st_size / 1e6
    return {"chunks": len(chunks), "per_mb": len(chunks) / megabytes, "chars": sum(len(c.text) for c in chunks),
            "no_data": sum(_without_data(c.text, headers) for c in chunks), "max": max(len(c.text) for c in chunks),
            "mb": megabytes, "seconds": seconds}


def prose(name: str, texts: list[str]) -> dict:
    from desktop_rag.engine.ingest.chunking import split_text

    text = "\n\n".join(texts)
    megabytes = len(text.encode("utf-8")) / 1e6
    count = len(split_text(text, CHUNK_SIZE, OVERLAP))
    return {"chunks": count, "per_mb": count / megabytes, "mb": megabytes, "name": name}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", default=",".join(str(CACHE / f) for f in FILES))
    args = parser.parse_args(argv)
    rows = []
    english = [p.read_text(encoding="utf-8") for p in sorted((CACHE / "xquad-en-docs-flat").glob("*.txt"))]
    for label, texts in (("prose_en", english), ("prose_zh", list(load_beir("xquad-zh").corpus.values()))):
        if texts:
            p = prose(label, texts)
            rows.append(figure(f"table_cost.{label}.chunks_per_mb", p["per_mb"], "chunks/MB",
                               note=f"{p['chunks']} chunks from {p['mb']:.2f} MB"))
    for name in args.files.split(","):
        path = Path(name)
        if not path.exists():
            rows.append(figure(f"table_cost.{path.name}", None, note="not in the bench cache: fetch it (docstring)"))
            continue
        for wide, label in ((False, "before"), (True, "after")):
            m = measure(path, wide)
            rows += [figure(f"table_cost.{path.name}.{label}.chunks_per_mb", m["per_mb"], "chunks/MB",
                            note=f"{m['chunks']} chunks, {m['chars']:,} characters embedded, longest {m['max']}, "
                                 f"{m['mb']:.2f} MB, {m['seconds']:.1f} s to read and chunk"),
                     figure(f"table_cost.{path.name}.{label}.chunks_without_data", m["no_data"], "chunks")]
    emit("table_cost", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
