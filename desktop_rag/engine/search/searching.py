"""One search, start to end: the question made once (question.py: languages, translations, glosses), a result
from memory when nothing changed (cache.py), else the retrievers fused (retrieval.py, signals.py), then for an
answer the feedback rules (feedback.py).

`Engine.search` only says where to look; what is loaded (the model, the vectors, the word list, the caches, the
calling thread's store, the settings) comes from the runtime, passed in as `Loaded`. A new stage (a reranker over
the fused candidates) goes here; a new signal in fusion goes to signals.py.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Protocol

from desktop_rag.config import Settings
from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.search import feedback as feedback_rules
from desktop_rag.engine.search import retrieval, signals
from desktop_rag.engine.search.cache import BoundedLRU, hits_size
from desktop_rag.engine.search.question import Question, question
from desktop_rag.engine.search.translation import Completer
from desktop_rag.engine.store.languages import library_languages
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store, VectorSearch
from desktop_rag.engine.text.lexicon import Lexicon
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.topics import Topics

log = logging.getLogger(__name__)


class SearchHits(list):
    """The hits of `Engine.search`, best first; `keyword_only` is True when the library has vectors but they were
    still loading (a large library just opened): the hits come from keyword search alone. `translations`: the
    (language, text) versions of the question that were searched too (a language model translated it)."""

    def __init__(self, hits: Iterable[Hit] = (), keyword_only: bool = False,
                 translations: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(hits)
        self.keyword_only = keyword_only
        self.translations = translations


class Loaded(Protocol):
    """What a search takes from the runtime (engine/runtime.py)."""

    results: BoundedLRU
    index_model: str
    settings: Settings

    @property
    def store(self) -> Store: ...

    def dense_now(self) -> bool: ...
    def dense_pair(self) -> tuple[Embedder, VectorSearch]: ...
    def lexicon(self) -> Lexicon | None: ...
    def loaded_vectors(self) -> int: ...
    def question_topics(self, question: str) -> Topics: ...


def search(text: str, k: int, within: Restriction, loaded: Loaded, translator: Callable[[], Completer | None],
           cancel: threading.Event | None = None, feedback: bool = False) -> SearchHits:
    """The top `k` passages for `text` within `within` (dense search only when it would not wait for a background
    load; `translator` gives the language model that translates the question, or None; `cancel` stops waiting
    for the translation: the question is then searched as asked). `feedback`: an answer's search, which the
    feedback rules then reorder when the settings allow (never a plain search, nor the user's test set)."""
    store, settings = loaded.store, loaded.settings
    hits = _ranked(text, k, within, loaded, store, settings, translator, cancel)
    if feedback and settings.feedback:
        hits = SearchHits(feedback_rules.apply(store, text, hits, within), hits.keyword_only, hits.translations)
    return hits


def _ranked(text: str, k: int, within: Restriction, loaded: Loaded, store: Store, settings: Settings,
            translator: Callable[[], Completer | None], cancel: threading.Event | None) -> SearchHits:
    """The fused top `k`, from memory when nothing changed since it was last searched."""
    dense = loaded.dense_pair if loaded.dense_now() else None
    keyword_only = dense is None and store.has_vectors()
    if keyword_only:
        log.info("Vectors still loading: answering from keyword search only")
    bilingual = dense is not None and len(library_languages(store)) > 1
    asked = question(text, store, translator(), cancel, loaded.lexicon if bilingual else None)
    key = _result_key(asked, within, k, dense is not None, loaded, store, settings)
    cached = None if key is None or keyword_only else loaded.results.get(key)
    if cached is not None:
        return SearchHits(cached, keyword_only=False, translations=asked.translations)
    asked = dataclasses.replace(asked, topics=loaded.question_topics(asked.normalised))  # (not in the key: the
    hits = retrieval.hybrid_search(asked, k, store, dense, settings.min_score, within=within)  # version decides)
    if key is not None and not keyword_only and key == _result_key(asked, within, k, True, loaded, store, settings):
        loaded.results.put(key, tuple(hits), hits_size(hits))  # (nothing changed while it searched)
    return SearchHits(hits, keyword_only=keyword_only, translations=asked.translations)


def _result_key(asked: Question, within: Restriction, k: int, dense: bool, loaded: Loaded, store: Store,
                settings: Settings) -> tuple | None:
    """What a search's result depends on (`search.cache`): the library's version, the question as searched, where
    and how deep, and each signal's part (signals.py); None when it cannot be cached (a read-only library without
    the version counter). The in-memory vector count is in the dense signal's part: the FAISS cache follows a
    commit a moment later, and a search in between must not be kept."""
    version = store.library_version()
    if version is None:
        return None
    keyed = signals.Keyed(asked, settings, dense, loaded.loaded_vectors() if dense else -1, loaded.index_model)
    texts = tuple(text for _, text in asked.translations)
    return version, asked.normalised, texts, within, k, signals.cache_key(keyed)
