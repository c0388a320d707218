"""Which languages a library holds (flags in its meta table): the inputs of the default embedding model and
of query translation."""

from __future__ import annotations

from desktop_rag.engine.store.library import Store
from desktop_rag.engine.text.language import text_languages

_FLAGS = {"zh": ("has_cjk", "han"), "en": ("has_latin", "latin")}  # (meta key, the script that shows it)


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


def library_has_cjk(store: Store) -> bool:
    """Whether the library holds Chinese text."""
    return _has(store, "zh")


def library_languages(store: Store) -> set[str]:
    """The languages of the library ("zh", "en"), for query translation."""
    return {lang for lang in _FLAGS if _has(store, lang)}


def _has(store: Store, lang: str) -> bool:
    key, _ = _FLAGS[lang]
    flag = store.get_meta(key)
    if flag is None:  # not known yet (an empty library, or one from before the flags): scanned, then remembered
        if store.read_only:
            return _scan(store, lang)
        with store.transaction():  # read and remembered in one write transaction: an index run committing
            flag = store.get_meta(key)  # meanwhile can neither be missed nor have its flag overwritten
            if flag is None:
                flag = "1" if _scan(store, lang) else "0"
                if flag == "1" or (store.count_chunks() and store.sees_everything()):  # (a member's "none" is
                    store.set_meta(key, flag)  # of its own collections only: not remembered for everyone)
    return flag == "1"


def _scan(store: Store, lang: str) -> bool:
    """Whether any stored chunk holds text of `lang` (a scan of the chunks' text)."""
    return store.has_script(_FLAGS[lang][1])
