"""Where a dense search on the FAISS cache looks: the vector ids within a restriction as a FAISS selector, cached
per library and restriction until the vectors, or which collection or path a vector belongs to, change."""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.scope import Restriction

_CACHE_SIZE = 16
_selectors: OrderedDict[tuple[str, Restriction], tuple[tuple[int, int], int, object]] = OrderedDict()
_selectors_lock = threading.Lock()


def vector_ids(store: Store, within: Restriction) -> np.ndarray:
    """The sorted ids of the chunks within the restriction that have a vector."""
    if within.collection is not None and not within.folders and not within.types and not within.files:
        return store.collection_vector_ids(within.collection)  # the collection's own query (uses its index)
    where, args = within.files_sql("f")
    cursor = store.db.execute(
        "SELECT v.chunk_id FROM files f JOIN chunks c ON c.file_id = f.id JOIN vectors v ON v.chunk_id = c.id "
        f"WHERE {where}", args)
    return np.sort(np.fromiter((r[0] for r in cursor), dtype=np.int64))


def member_filter(store: Store, within: Restriction) -> tuple[int, object | None]:
    """(how many vectors are within, a FAISS IDSelector of them) for filtering inside the search.

    Cached per library and restriction (the last few) until the vectors, or which collection or path a vector
    belongs to, change (`Store.membership_key`), so a repeated restricted query costs one small meta read.
    """
    key = (store.location, within)
    with store.read_snapshot():  # the stamp and the ids belong together
        stamp = store.membership_key()
        with _selectors_lock:
            cached = _selectors.get(key)
            if cached is not None and cached[0] == stamp:
                _selectors.move_to_end(key)
                return cached[1], cached[2]
        ids = vector_ids(store, within)
    selector = id_selector(ids) if len(ids) else None
    with _selectors_lock:
        _selectors[key] = (stamp, len(ids), selector)
        _selectors.move_to_end(key)
        while len(_selectors) > _CACHE_SIZE:
            _selectors.popitem(last=False)
    return len(ids), selector


def id_selector(ids: np.ndarray):
    """A FAISS selector of chunk ids (a hash set: O(1) per candidate), for `VectorIndex.search`."""
    import faiss

    ids = np.ascontiguousarray(ids, dtype=np.int64)
    return faiss.IDSelectorBatch(len(ids), faiss.swig_ptr(ids))
