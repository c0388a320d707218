"""Which languages a library holds (flags in its meta table): the inputs of the default embedding model and
of query translation."""

from __future__ import annotations

from desktop_rag.engine.store.store import Store
from desktop_rag.engine.text.language import text_languages

_FLAGS = {"zh": ("has_cjk", "*[一-鿿]*"), "en": ("has_latin", "*[A-Za-z][A-Za-z][A-Za-z]*")}


def note_chunk_texts(store: Store, texts: list[str]) -> None:
    """Record which languages the library holds (flags only ever turn on)."""
    missing = [lang for lang, (key, _) in _FLAGS.items() if store.get_meta(key) != "1"]
    if not missing:
        return
    found = set().union(*(text_languages(t) for t in texts)) if texts else set()
    new = [lang for lang in missing if lang in found]
    if new:
        with store.transaction():
            for lang in new:
                store.set_meta(_FLAGS[lang][0], "1")


def _has(store: Store, lang: str) -> bool:
    key, pattern = _FLAGS[lang]
    flag = store.get_meta(key)
    if flag is None:  # a library from before the flags: one query, then remembered
        found = store.db.execute(f"SELECT EXISTS (SELECT 1 FROM chunks WHERE text GLOB '{pattern}')").fetchone()[0]
        flag = "1" if found else "0"
        if found or store.count_chunks():
            with store.transaction():
                store.set_meta(key, flag)
    return flag == "1"


def library_has_cjk(store: Store) -> bool:
    """Whether the library holds Chinese text."""
    return _has(store, "zh")


def library_languages(store: Store) -> set[str]:
    """The languages of the library ("zh", "en"), for query translation."""
    return {lang for lang in _FLAGS if _has(store, lang)}
