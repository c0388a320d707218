"""Summaries of one document (issue 40), streamed as answer events.

With a model: the whole document in one request when it fits the budget (`summary_budget`: the setting, else the
model's context window where known; less the answer's `max_tokens` and the prompt's own text), else map-reduce:
each section summarised (`SummaryStep` before each request), then one request writes the summary from the
sections' summaries. The plan says about how long at the model's recent speed (`llm_speed`). Sections are numbered
[n] and cited like passages (`summary_sections`). Section summaries and finished summaries are stored by a hash
of their chunks' text, model and language (`store.summary_cache`), so a second summary, or one of an edited
document, asks only for what changed. Without a model: the extractive summary (`summary_extractive`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from desktop_rag.engine.answer import llm_speed, sent
from desktop_rag.engine.answer.llm import LLMClient, cancelled
from desktop_rag.engine.answer.llm_errors import LLMError
from desktop_rag.engine.answer.reasoning import without_thinking
from desktop_rag.engine.answer.summary_extractive import Embed, Stored, extractive_summary
from desktop_rag.engine.answer.summary_prompts import map_messages, reduce_messages, summary_words, whole_messages
from desktop_rag.engine.answer.summary_sections import DocSection, document_chunks, sections
from desktop_rag.engine.answer.model_reply import done_event, streamed_reply
from desktop_rag.engine.answer.thinking_models import ThinkingModel, finished_reply
from desktop_rag.engine.document.stored import joined
from desktop_rag.engine.errors import ConfirmationNeeded
from desktop_rag.engine.messages import Phrase, message
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.models.tokens import count_tokens
from desktop_rag.engine.store import summary_cache
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.text.terms import has_han
from desktop_rag.engine.answer.events import (
    AnswerEvent,
    ErrorEvent,
    SourcesEvent,
    SummaryPlan,
    SummaryStep,
    TokenEvent,
    stopped,
)
from desktop_rag.engine.store.values import SECTIONS_CUT, SUMMARY_PARTIAL, Ending, Hit, SentPrompt

log = logging.getLogger(__name__)

PROMPT_TOKENS = 600  # the rules, labels and question of a summary request, beside the document's text
WHOLE_SECTION_TOKENS = 1000  # a document that fits is cited in sections of about this size
MAP_TOKENS = 300  # a section's summary, at most (fewer when many sections must share the last request)
MIN_MAP_TOKENS = 80


class Memory(Protocol):
    """Summaries kept in this process's memory (the runtime's bounded LRU): a read-only library stores none."""

    def get(self, key: str) -> str | None: ...
    def put(self, key: str, value: str, size: int) -> None: ...


class Summariser:
    """Summaries of the library's documents for one model (None: extractive) and request size (`budget` tokens).
    One that needs more than `limit` requests runs only when confirmed (`summarise(confirm_cost=True)`)."""

    def __init__(self, store: Callable[[], Store], budget: int, llm: LLMClient | None, fingerprint: dict,
                 embed: Embed, stored_vectors: Stored | None = None, cache: bool = True, writable: bool = True,
                 limit: int = 0, memory: Memory | None = None, thinking: ThinkingModel | None = None) -> None:
        self._store, self.budget, self.llm = store, budget, llm
        self.thinking = thinking  # whether the model opens its replies with thinking (answer/thinking_models.py)
        self._fingerprint = json.dumps(fingerprint, sort_keys=True, ensure_ascii=False)
        self._embed, self._stored_vectors = embed, stored_vectors
        self._cache, self._writable = cache, writable
        self.limit, self._memory = limit, memory

    # ---- planning ----

    def plan(self, path: str, language: str | None = None) -> SummaryPlan:
        """What a summary of `path` will take (UsageError if it is not a file of the library with text)."""
        return self._layout(path, language)[0]

    def _layout(self, path: str, language: str | None) -> tuple[SummaryPlan, list[DocSection], int]:
        """(the plan, the sections, the tokens a section's summary may take)."""
        chunks = document_chunks(self._store(), path)
        path = chunks[0].path
        text = joined(chunks)
        tokens = count_tokens(text)
        language = language if language in ("en", "zh") else document_language(text)
        if self.llm is None:
            parts = sections(chunks, WHOLE_SECTION_TOKENS)
            return SummaryPlan(path, "extractive", len(parts), tokens, 0, language), parts, 0
        room = self._room()
        per_token = len(text) / max(tokens, 1)  # characters per token: the estimate's replies in characters
        final = (len(text), int(summary_words(tokens) * 1.5 * per_token))  # (read, written) of the last request
        if tokens + PROMPT_TOKENS // 2 <= room:
            parts = sections(chunks, WHOLE_SECTION_TOKENS)
            stored = self._cached(self._final_key("whole", parts, language)) is not None
            requests = [] if stored else [final]
            return SummaryPlan(path, "whole", len(parts), tokens, len(requests), language,
                               self._seconds(requests)), parts, 0
        parts = sections(chunks, room)
        map_tokens = max(MIN_MAP_TOKENS, min(MAP_TOKENS, room // len(parts)))
        if self._cached(self._final_key("reduce", parts, language, map_tokens)) is not None:
            requests = []
        else:
            reply = int(map_tokens * per_token)
            requests = [(len(joined(s.chunks)), reply) for s in parts
                        if self._cached(self._map_key(s, language, map_tokens)) is None]
            requests.append((reply * len(parts), final[1]))
        return SummaryPlan(path, "map-reduce", len(parts), tokens, len(requests), language,
                           self._seconds(requests)), parts, map_tokens

    def _seconds(self, requests: list[tuple[int, int]]) -> float | None:
        """About how long these (read, written characters) requests take at the model's recent speed."""
        if not requests:
            return 0.0
        config = self.llm.config
        return llm_speed.estimate(config.base_url, config.model,
                                  [(read + PROMPT_TOKENS * 4, written) for read, written in requests])

    def _room(self) -> int:
        """The document tokens one request may carry: the budget less the answer's room and the prompt's text."""
        budget = self.budget
        reserve = min(int(self.llm.config.max_tokens), budget // 4) if self.llm is not None else 0
        return max(budget - reserve - PROMPT_TOKENS, 200)

    # ---- summarising ----

    def summarise(self, path: str, language: str | None = None, cancel: threading.Event | None = None,
                  refresh: bool = False, confirm_cost: bool = False) -> Iterator[AnswerEvent]:
        """Events as an answer's (SummaryStep first when there are several requests; UsageError before any,
        ConfirmationNeeded "summary_over_limit" when it takes more than `limit` requests and `confirm_cost` is not
        set: nothing is sent). `refresh` (Regenerate): the summary is written anew and replaces the stored one;
        stored section summaries are still used (they depend on their section's text alone)."""
        plan, parts, map_tokens = self._layout(path, language)
        if self.limit and plan.requests > self.limit and not confirm_cost:
            raise ConfirmationNeeded.coded("summary_over_limit", name=os.path.basename(plan.path),
                                           requests=plan.requests, sections=plan.sections, tokens=plan.tokens,
                                           limit=self.limit)
        if plan.mode == "extractive":
            yield from self._extractive(parts, plan.language, cancel)
        elif plan.mode == "whole":
            hits = [s.hit() for s in parts]
            messages = whole_messages(hits, os.path.basename(plan.path), plan.language, plan.tokens)
            yield from self._final(messages, parts, hits, plan, self._final_key("whole", parts, plan.language),
                                   cancel, refresh=refresh)
        else:
            yield from self._map_reduce(parts, plan, map_tokens, cancel, refresh)

    def _map_reduce(self, parts: list[DocSection], plan: SummaryPlan, map_tokens: int,
                    cancel: threading.Event | None, refresh: bool) -> Iterator[AnswerEvent]:
        key = self._final_key("reduce", parts, plan.language, map_tokens)
        if not refresh and self._cached(key) is not None:
            yield from self._final([], parts, (), plan, key, cancel)
            return
        summaries: list[Hit] = []
        made: list[SentPrompt] = []  # the section requests sent ("What was sent" lists them before the last)
        done = cut = 0  # sections summarised; of them, replies the server stopped at their max_tokens
        thinks = self.thinking.thinks() if self.thinking is not None else None
        for section in parts:
            section_key = self._map_key(section, plan.language, map_tokens)
            text = self._cached(section_key)
            if text is None:
                yield SummaryStep(done, plan.requests)
                if cancelled(cancel):
                    yield done_event("", (), "llm", *stopped())
                    return
                text, failure = self._section_summary(section, len(parts), plan.language, map_tokens, cancel, made,
                                                      thinks)
                if failure is not None and failure.kind != "length":
                    yield ErrorEvent(Reason.of(failure))
                    return
                if cancelled(cancel):
                    yield done_event("", (), "llm", *stopped())
                    return
                done += 1
                if failure is None:
                    self._keep(section_key, section.chunks[0].file_id, text)
                else:  # the reply is not whole: said with the summary, never kept
                    cut += 1
            summaries.append(dataclasses.replace(section.hit(), text=text or "(empty)"))
        yield SummaryStep(done, plan.requests)
        fitted = _fitting(summaries, self._room())
        messages = reduce_messages(fitted, plan.language, plan.tokens)
        yield from self._final(messages, parts[:len(fitted)], fitted, plan, key, cancel, refresh=True, earlier=made,
                               ending=_short(len(fitted), len(parts), cut, map_tokens))

    def _section_summary(self, section: DocSection, sections: int, language: str, map_tokens: int,
                         cancel: threading.Event | None, made: list[SentPrompt],
                         thinks: bool | None) -> tuple[str, LLMError | None]:
        """A section's summary request: (its text, the failure if any; a reply stopped at `map_tokens` keeps its
        text, as `partial`, read as an answer's is: `thinks`, a model known to think, cut before its `</think>`
        wrote nothing but thinking), the request added to `made`."""
        with sent.recording("section") as calls:
            try:
                text, failure = self.llm.complete(map_messages(section.hit(), section.number, sections, language),
                                                  max_tokens=map_tokens, cancel=cancel), None
            except LLMError as exc:
                text, failure = exc.partial, exc
        made.extend(calls)
        # `complete` took a leading think block out already: nothing is learned from what is left (None)
        whole = failure is None
        return finished_reply(None, thinks, text, whole, bound=self.llm.config.thinking_chars)[0].strip(), failure

    def _final(self, messages: list[dict], parts: Sequence[DocSection], sent_hits: Sequence[Hit], plan: SummaryPlan,
               key: str, cancel: threading.Event | None, refresh: bool = False, earlier: Sequence[SentPrompt] = (),
               ending: Ending | None = None) -> Iterator[AnswerEvent]:
        """The request that writes the summary, streamed (or the stored one replayed, unless `refresh`), cited by
        section; stored unless it ends short (`ending`: made of a section's reply that is not whole; empty), with
        its note when it covers the first sections only (SUMMARY_PARTIAL: the same again on replay)."""
        hits = tuple(s.hit() for s in parts)
        stored = None if refresh else self._cached(key)
        if stored is not None:
            data = json.loads(stored)
            text = without_thinking(data["text"])  # a summary stored before such thinking was told from it
            kept = Ending.from_json(data.get("ending"))  # (one stored before had its note as text: "notice")
            yield SourcesEvent(hits, _query(plan), prompt=SentPrompt.from_json(data.get("prompt")),
                               thinking_chars=self.llm.config.thinking_chars)
            yield TokenEvent(text)
            notice = data.get("notice", "") if kept is None else kept.reason
            yield done_event(text, hits, "llm", notice, kept, cached=True)
            return
        prompt = sent.sent_prompt(messages, sent_hits, self.llm.config.model)
        # map-reduce: the document went whole, in the section requests (this request's are the sections' summaries)
        after = plan.tokens if plan.mode == "map-reduce" else prompt.passages_after
        prompt = dataclasses.replace(prompt, passages_before=plan.tokens, passages_after=after, earlier=tuple(earlier))
        thinks = self.thinking.thinks() if self.thinking is not None else None
        yield SourcesEvent(hits, _query(plan), prompt=prompt, thinks=thinks,
                           thinking_chars=self.llm.config.thinking_chars)
        done = yield from streamed_reply(self.llm, messages, hits, cancel, self.thinking, thinks, ending,
                                         summary=True)
        if done is None:  # stopped, cut or failed: said
            return
        ending = done.ending  # how a whole reply ended: made of a section's reply that is not whole; empty
        if ending is None or ending.state == SUMMARY_PARTIAL:  # whole (over the sections that fit): stored
            self._keep(key, parts[0].chunks[0].file_id,
                       json.dumps({"text": done.answer, "ending": None if ending is None else ending.to_json(),
                                   "prompt": prompt.to_json()}, ensure_ascii=False))
        yield done

    def _extractive(self, parts: list[DocSection], language: str,
                    cancel: threading.Event | None) -> Iterator[AnswerEvent]:
        hits = tuple(s.hit() for s in parts)
        chosen = extractive_summary(parts, self._embed, self._stored_vectors)
        yield SourcesEvent(hits, _query_name(parts))
        lines: list[str] = []
        for number, sentence in chosen:
            if cancelled(cancel):
                yield done_event("".join(lines), hits, "extractive", *stopped())
                return
            lines.append(f"- {sentence} [{number}]\n")
            yield TokenEvent(lines[-1])
        yield done_event("".join(lines), hits, "extractive", message("summary_extractive", language))

    # ---- the stored summaries ----

    def _map_key(self, section: DocSection, language: str, map_tokens: int) -> str:
        return self._key("map", [section.key], language, map_tokens)

    def _final_key(self, kind: str, parts: Sequence[DocSection], language: str, map_tokens: int = 0) -> str:
        return self._key(kind, [s.key for s in parts], language, map_tokens)

    def _key(self, kind: str, keys: list[str], language: str, map_tokens: int) -> str:
        material = json.dumps([kind, keys, language, map_tokens, self._room(), self._fingerprint])
        return hashlib.sha256(material.encode("utf-8")).hexdigest()

    def _cached(self, key: str) -> str | None:
        if not self._cache:
            return None
        stored = summary_cache.get(self._store().db, key)
        return stored if stored is not None or self._memory is None else self._memory.get(key)

    def _keep(self, key: str, file_id: int, text: str) -> None:
        """Store a section's or a document's summary; a read-only library keeps it in this process's memory."""
        if not (self._cache and text):
            return
        if self._writable:
            with self._store().transaction() as db:
                summary_cache.put(db, key, file_id, text)
        elif self._memory is not None:
            self._memory.put(key, text, 2 * len(text) + 200)


def document_language(text: str) -> str:
    """"zh" when Chinese characters are at least a third of the letters of the document's first 20k characters."""
    sample = text[:20_000]
    han = sum(1 for ch in sample if has_han(ch))
    letters = sum(1 for ch in sample if ch.isalpha())
    return "zh" if letters and han * 3 >= letters else "en"


def _fitting(summaries: list[Hit], room: int) -> list[Hit]:
    """The first section summaries whose tokens fit one request (all of them, unless the document is huge)."""
    kept, used = [], 0
    for hit in summaries:
        used += count_tokens(hit.text) + 12  # its label line
        if used > room and kept:
            break
        kept.append(hit)
    return kept


def _query(plan: SummaryPlan) -> str:
    return f"summary: {os.path.basename(plan.path)}"


def _query_name(parts: Sequence[DocSection]) -> str:
    return f"summary: {os.path.basename(parts[0].chunks[0].path)}"


def _short(fitted: int, total: int, cut: int, map_tokens: int) -> Ending | None:
    """How a map-reduce summary of `total` sections falls short, if it does: `cut` section replies stopped at their
    limit (SECTIONS_CUT, never stored; with the budget's note too when only the first `fitted` sections' summaries
    fit its last request) or only that (SUMMARY_PARTIAL)."""
    notes = [] if fitted == total else [Phrase("summary_partial", shown=fitted, total=total)]
    if cut:
        notes.append(Phrase("summary_sections_cut", cut=cut, total=total, tokens=map_tokens))
        return Ending(SECTIONS_CUT, Reason.of(*notes))
    return Ending(SUMMARY_PARTIAL, Reason.of(*notes)) if notes else None
