"""A synthetic library listing for the library table at scale (the tests' and bench/gui_gc's): `sources` folders of
`per_source` files each, every `failed_every`-th failed."""

from __future__ import annotations

from desktop_rag.engine.store.values import FileRecord, SourceRecord


def synthetic_listing(sources: int, per_source: int, failed_every: int = 0) -> tuple:
    """((SourceRecord, (FileRecord, ...)), ...), as the store lists a library, files under 50-file subfolders."""
    out, file_id = [], 0
    for s in range(sources):
        root = f"/lib/s{s:02d}"
        files = []
        for f in range(per_source):
            file_id += 1
            failed = failed_every and f % failed_every == 0
            files.append(FileRecord(file_id, s + 1, f"{root}/d{f // 50:03d}/n{f:05d}.txt", 10, 1, "h",
                                    "failed" if failed else "indexed", "broken" if failed else "", 0 if failed else 2))
        out.append((SourceRecord(s + 1, root, "folder"), tuple(files)))
    return tuple(out)
