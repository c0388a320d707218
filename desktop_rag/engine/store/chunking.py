"""The chunking settings a library's chunks were made with (its meta), against the ones in use."""

from __future__ import annotations

from collections.abc import Mapping

from desktop_rag.config import CHUNKING_SETTINGS
from desktop_rag.engine.errors import ModelMismatchError
from desktop_rag.engine.store.library import Store


def needs_reindex(store: Store, params: Mapping[str, object]) -> bool:
    """True when the library holds chunks made with other chunking settings than `params` (every file is read
    again)."""
    if store.count_chunks() == 0:
        return False
    return any(store.get_meta(k) not in (None, str(params[k])) for k in CHUNKING_SETTINGS)


def record(store: Store, params: Mapping[str, object]) -> None:
    """Note `params` as the library's chunking settings; ModelMismatchError when its chunks were made with others."""
    if needs_reindex(store, params):
        stored = ", ".join(f"{k}={store.get_meta(k)}" for k in CHUNKING_SETTINGS)
        wanted = ", ".join(f"{k}={params[k]}" for k in CHUNKING_SETTINGS)
        raise ModelMismatchError.coded("chunked_with", stored=stored, wanted=wanted)
    with store.transaction():
        for key in CHUNKING_SETTINGS:
            store.set_meta(key, str(params[key]))
