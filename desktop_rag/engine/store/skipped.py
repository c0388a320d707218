"""What the last scan of each source skipped as not supported, by suffix: kept in `meta` (key "skipped.<source
id>", a JSON object), so `status` can say "12 skipped: 8 .key, 4 .pages" without a schema change."""

from __future__ import annotations

import json
from collections.abc import Iterable

from desktop_rag.engine.store.library import Store

_KEY = "skipped.{}"
MAX_TYPES = 50  # suffixes kept per source (a folder of random names must not grow the meta row without bound)


def set_skipped(store: Store, source_id: int, counts: dict[str, int]) -> None:
    """Record a source's scan (inside the caller's transaction); an empty scan clears it."""
    key = _KEY.format(source_id)
    if counts:
        kept = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_TYPES])
        store.set_meta(key, json.dumps(kept))
    else:
        store.db.execute("DELETE FROM meta WHERE key = ?", (key,))


def skipped_counts(store: Store, source_ids: Iterable[int]) -> tuple[tuple[str, int], ...]:
    """The skipped files of these sources by suffix, most first."""
    total: dict[str, int] = {}
    for source_id in source_ids:
        try:
            counts = json.loads(store.get_meta(_KEY.format(source_id)) or "{}")
        except ValueError:
            continue
        for suffix, n in counts.items() if isinstance(counts, dict) else ():
            if isinstance(n, int):
                total[str(suffix)] = total.get(str(suffix), 0) + n
    return tuple(sorted(total.items(), key=lambda kv: (-kv[1], kv[0])))
