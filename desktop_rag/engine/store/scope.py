"""Where a search looks: one collection, some folders, some files, some file types, as one SQL condition on `files`.

The plain value the keyword index, the store and retrieval share; `restriction` builds checked ones and their
dense filters."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_rag.engine.file_types import suffixes_of
from desktop_rag.engine.paths import subtree_range


@dataclass(frozen=True)
class Restriction:
    """Which chunks a search may return: in `collection` (None: any), under one of `folders` (stored, normalised
    paths; empty: anywhere), one of `files` (stored paths; empty: any; "Ask this document") and of one of `types`
    (TYPE_NAMES; empty: any). Folders, files and types are each OR-ed, and the four parts are AND-ed."""

    collection: int | None = None
    folders: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    files: tuple[str, ...] = ()

    @property
    def everything(self) -> bool:
        return self.collection is None and not self.folders and not self.types and not self.files

    def files_sql(self, alias: str = "f") -> tuple[str, list]:
        """A WHERE condition on the `files` row `alias` (always true for `everything`) and its parameters."""
        parts: list[str] = []
        args: list = []
        if self.collection is not None:
            parts.append(f"{alias}.source_id IN (SELECT id FROM sources WHERE collection_id = ?)")
            args.append(self.collection)
        if self.folders:
            under = []
            for folder in self.folders:  # paths.subtree_range: is_inside as a range, no LIKE
                under.append(f"{alias}.path = ? OR ({alias}.path >= ? AND {alias}.path < ?)")
                args += list(subtree_range(folder))
            parts.append("(" + " OR ".join(f"({u})" for u in under) + ")")
        if self.files:
            parts.append(f"{alias}.path IN ({', '.join('?' for _ in self.files)})")
            args += list(self.files)
        if self.types:
            suffixes = [s for t in self.types for s in suffixes_of(t)]
            parts.append("(" + (" OR ".join(f"lower({alias}.path) LIKE ?" for _ in suffixes) or "1 = 0") + ")")
            args += [f"%{s.lower()}" for s in suffixes]  # .PDF is a PDF
        return (" AND ".join(parts) or "1 = 1"), args
