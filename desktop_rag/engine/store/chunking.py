"""The chunking settings a library's chunks were made with (its meta), against the ones in use."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from desktop_rag.config import CHUNKING_SETTINGS, chunking_fits
from desktop_rag.engine.errors import ModelMismatchError
from desktop_rag.engine.store.library import Store

log = logging.getLogger(__name__)


def recorded(store: Store) -> dict[str, int] | None:
    """The chunking settings the library's chunks were made with ({} when none are recorded); None when what is
    recorded cannot cut text (an archive's chunk size of 0, an overlap not below the size or a number of a hundred
    digits, taken by an empty library before imports checked them): no settings made those chunks."""
    held: dict[str, int] = {}
    for key in CHUNKING_SETTINGS:
        text = store.get_meta(key)
        if text is not None:
            if not (text.isascii() and text.isdigit() and len(text) <= 10):
                return None
            held[key] = int(text)
    return held if chunking_fits(held) else None


def needs_reindex(store: Store, params: Mapping[str, object]) -> bool:
    """True when the library holds chunks made with other chunking settings than `params` (every file is read
    again): in any collection, one this role may not see too (a member of a shared library whose own collections
    are empty must not record other settings over the others' chunks). Settings recorded that cannot cut text
    are none (`record` puts `params` in their place)."""
    held = recorded(store)
    if not held or not store.library_has_chunks():
        return False
    return any(key in held and held[key] != params[key] for key in CHUNKING_SETTINGS)


def record(store: Store, params: Mapping[str, object]) -> None:
    """Note `params` as the library's chunking settings; ModelMismatchError when its chunks were made with others.
    Recorded settings that cannot cut text are replaced with a warning in the log: the chunks stay, and nothing is
    read again (a library's not-linked sources could not be)."""
    if needs_reindex(store, params):
        stored = ", ".join(f"{k}={store.get_meta(k)}" for k in CHUNKING_SETTINGS)
        wanted = ", ".join(f"{k}={params[k]}" for k in CHUNKING_SETTINGS)
        code = "chunked_with" if store.sees_everything() else "chunked_with_shared"
        raise ModelMismatchError.coded(code, stored=stored, wanted=wanted)
    if recorded(store) is None:
        log.warning("The library's chunking settings (%s) cannot cut text: the settings in use replace them",
                    ", ".join(f"{k}={(store.get_meta(k) or '')[:20]!r}" for k in CHUNKING_SETTINGS))
    with store.transaction():
        for key in CHUNKING_SETTINGS:
            store.set_meta(key, str(params[key]))
