"""Answerers, summarisers and the query translator put together from the settings and what the runtime holds
loaded: the configured language model (its messages in the interface's language), the stored answers' replay
and fingerprint, and the rule that nothing stays stored while `Settings.answer_cache` is off."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Protocol

from desktop_rag.config import AppPaths, Settings
from desktop_rag.engine.answer.answering import Answerer
from desktop_rag.engine.answer.compression import compression_mode
from desktop_rag.engine.answer.llm import LLMClient
from desktop_rag.engine.answer.llm_config import LLMConfig, resolve_llm_config
from desktop_rag.engine.answer.replay import AnswerReplay
from desktop_rag.engine.answer.side_requests import SideRequests
from desktop_rag.engine.answer.summarising import Memory, Summariser
from desktop_rag.engine.answer.summary_budget import summary_budget
from desktop_rag.engine.answer.thinking_models import ThinkingModel, models_file
from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.store import answer_cache, summary_cache
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.topics import Topics


class Loaded(Protocol):
    """What answers take from the runtime (engine/runtime.py)."""

    settings: Settings
    paths: AppPaths
    read_only: bool
    index_model: str
    store: Store
    summaries: Memory  # a read-only library's section and document summaries, in memory

    def chinese_interface(self) -> bool: ...
    def embedder(self) -> Embedder: ...
    def sentence_similarity(self, question: str, sentences: list[str]) -> list[float]: ...
    def compress_passages(self, query: str, hits: Sequence[Hit]) -> list[Hit]: ...
    def question_topics(self, question: str) -> Topics: ...


def llm_config(loaded: Loaded) -> LLMConfig | None:
    """The configured model (answer/llm_config.py), its client's messages in the interface's language."""
    config = resolve_llm_config(loaded.settings)
    chinese = loaded.chinese_interface()
    return dataclasses.replace(config, language="zh" if chinese else "en") if config else None


def translator(loaded: Loaded) -> SideRequests | None:
    """The model that translates questions (search/translation.py), or None (off, none configured, read-only:
    its cache is a write)."""
    config = llm_config(loaded) if loaded.settings.translate_queries and not loaded.read_only else None
    if config is None:
        return None
    client = LLMClient(config)
    return SideRequests(client, thinking_model(loaded, client))


def answerer(loaded: Loaded, search: Callable[..., list[Hit]], extractive: bool = False,
             conversation_id: int | None = None) -> Answerer:
    """An answerer over `search`; `extractive`: never call a model; `conversation_id`: the conversation its stored
    answers belong to (deleted with it)."""
    settings = loaded.settings
    config = llm_config(loaded)
    client = LLMClient(config) if config and not extractive else None
    forget_when_off(loaded)
    replay = None
    if client is not None and settings.answer_cache:
        replay = AnswerReplay(lambda: loaded.store, fingerprint(loaded, config), writable=not loaded.read_only,
                              conversation_id=conversation_id, feedback=settings.feedback)
    return Answerer(settings, search, client, loaded.sentence_similarity, loaded.compress_passages, replay,
                    loaded.question_topics, loaded.index_model, thinking_model(loaded, client))


def summariser(loaded: Loaded, extractive: bool = False) -> Summariser:
    """Summaries of one document (answer/summarising.py) with the configured model (`extractive` or none: the
    document's most central sentences by the library's embedding model)."""
    settings = loaded.settings
    config = llm_config(loaded)
    client = LLMClient(config) if config and not extractive else None
    forget_when_off(loaded)
    budget = summary_budget(int(settings.summary_budget_tokens), config if client else None)
    return Summariser(lambda: loaded.store, budget, client, fingerprint(loaded, config) if client else {},
                      lambda texts: loaded.embedder().embed(texts),
                      lambda ids: loaded.store.stored_vectors(ids),
                      cache=settings.answer_cache, writable=not loaded.read_only,
                      limit=int(settings.summary_request_limit), memory=loaded.summaries,
                      thinking=thinking_model(loaded, client))


def thinking_model(loaded: Loaded, client: LLMClient | None) -> ThinkingModel | None:
    """The record of whether `client`'s model opens its replies with thinking (answer/thinking_models.py)."""
    if client is None:
        return None
    return ThinkingModel(models_file(loaded.paths), client.config.shown_url, client.config.model)


def fingerprint(loaded: Loaded, config: LLMConfig) -> dict:
    """Whatever besides the passages shapes a stored answer or summary: model, endpoint, settings."""
    settings = loaded.settings
    return {"model": config.model, "endpoint": config.base_url, "provider": config.provider,
            "temperature": config.temperature, "max_tokens": config.max_tokens,
            "budget_chars": settings.context_budget_chars, "budget_tokens": settings.context_budget_tokens,
            "compression": compression_mode(settings.context_compression),
            "embedding_model": loaded.index_model}


def forget_answers(store: Store) -> int:
    """Remove every stored answer and summary; how many answers there were."""
    with store.transaction() as db:
        summary_cache.clear(db)  # stored summaries go with them (not counted)
        return answer_cache.clear(db)


def forget_when_off(loaded: Loaded) -> None:
    """With `Settings.answer_cache` off nothing stays stored (the setting may have been turned off in the file)."""
    store = loaded.store
    if (not loaded.settings.answer_cache and not loaded.read_only
            and (answer_cache.count(store.db) or summary_cache.count(store.db))):
        forget_answers(store)


def context(loaded: Loaded, question: str, hits: Sequence[Hit]) -> dict:
    """What an answer to `question` over `hits` would send the model (`desktop-rag context`): the numbered passages
    after compression, and the passages' tokens before and after it."""
    from desktop_rag.engine.answer.compression import sent_text
    from desktop_rag.engine.answer.prompting import build_messages
    from desktop_rag.engine.models.tokens import count_tokens

    budget = int(loaded.settings.context_budget_chars)
    whole = build_messages(question, hits, (), budget)[1]
    sent = build_messages(question, loaded.compress_passages(question, hits), (), budget)[1]
    return {
        "question": question,
        "passages": [{"n": n, "chunk_id": h.chunk_id, "path": h.path, "page": h.page, "heading": h.heading,
                      "text": sent_text(h), "focus": [list(span) for span in h.focus]}
                     for n, h in enumerate(sent, 1)],
        "tokens_before": sum(count_tokens(h.text) for h in whole),
        "tokens_after": sum(count_tokens(sent_text(h)) for h in sent),
    }
