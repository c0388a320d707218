"""The chunking settings a library's chunks were made with (its meta), against the ones in use."""

from __future__ import annotations

from collections.abc import Mapping

from desktop_rag.config import CHUNKING_SETTINGS
from desktop_rag.engine.errors import ModelMismatchError
from desktop_rag.engine.store.library import Store


def needs_reindex(store: Store, params: Mapping[str, object]) -> bool:
    """True when the library holds chunks made with other chunking settings than `params` (every file is read
    again): in any collection, one this role may not see too (a member of a shared library whose own collections
    are empty must not record other settings over the others' chunks)."""
    if not store.library_has_chunks():
        return False
    return any(store.get_meta(k) not in (None, str(params[k])) for k in CHUNKING_SETTINGS)


def record(store: Store, params: Mapping[str, object]) -> None:
    """Note `params` as the library's chunking settings; ModelMismatchError when its chunks were made with others."""
    if needs_reindex(store, params):
        stored = ", ".join(f"{k}={store.get_meta(k)}" for k in CHUNKING_SETTINGS)
        wanted = ", ".join(f"{k}={params[k]}" for k in CHUNKING_SETTINGS)
        code = "chunked_with" if store.sees_everything() else "chunked_with_shared"
        raise ModelMismatchError.coded(code, stored=stored, wanted=wanted)
    with store.transaction():
        for key in CHUNKING_SETTINGS:
            store.set_meta(key, str(params[key]))
