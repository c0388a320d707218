"""Question -> standalone query -> retrieval -> answer events (sources, tokens, done or error)."""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from desktop_rag.engine.answer.extractive import Similarity, TopicsOf, ordered_passages, quoted_answer
from desktop_rag.engine.answer.llm import LLMClient, cancelled
from desktop_rag.engine.answer.llm_config import config_problem
from desktop_rag.engine.answer.prompting import (
    build_messages,
    has_cjk,
    is_follow_up,
    rewrite_query_messages,
    rule_based_standalone_query,
)
from desktop_rag.engine.answer.replay import AnswerReplay
from desktop_rag.engine.answer.side_requests import SideRequests
from desktop_rag.engine.answer.model_reply import done_event, streamed_reply
from desktop_rag.engine.answer.thinking_models import ThinkingModel
from desktop_rag.engine.answer import sent
from desktop_rag.engine.answer.sent import sent_prompt
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.messages import message
from desktop_rag.engine.answer.events import AnswerEvent, DoneEvent, ErrorEvent, SourcesEvent, TokenEvent, stopped
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import ChatTurn, Hit, SentPrompt

log = logging.getLogger(__name__)

FALLBACK_CITED = 3
_MAX_REWRITE_CHARS = 300
_REWRITE_MAX_TOKENS = 120

Search = Callable[[str, int], list[Hit]]
Compress = Callable[[str, list[Hit]], list[Hit]]  # (query, hits) -> hits whose `focus` says what to send


class Answerer:
    """Turns a question (plus chat history) into a stream of answer events."""

    def __init__(self, settings: Any, search: Search, llm: LLMClient | None,
                 similarity: Similarity | None = None, compress: Compress | None = None,
                 replay: AnswerReplay | None = None, topics_of: TopicsOf | None = None, model: str = "",
                 thinking: ThinkingModel | None = None) -> None:
        self.settings = settings
        self.search = search
        self.llm = llm
        self.similarity = similarity  # sentence meaning, for extractive answers across languages
        self.compress = compress  # context compression before the prompt (answer/compression.py)
        self.replay = replay  # stored answers (answer/replay.py); None: the cache is off
        self.topics_of = topics_of  # a question's topic terms in the library (text/topics.py), for sentence choice
        self.model = model  # the embedding model behind `similarity` (its cosine floors: answer/selection.py)
        self.thinking = thinking  # whether the language model opens its replies with thinking (learned as it answers)

    @property
    def mode(self) -> str:
        return "llm" if self.llm is not None else "extractive"

    def answer(
        self,
        question: str,
        history: Sequence[ChatTurn] = (),
        cancel: threading.Event | None = None,
        refresh: bool = False,
    ) -> Iterator[AnswerEvent]:
        """Yield the answer as events (`refresh`: ask the model even when a stored answer fits). The contract:

        - At most one SourcesEvent, always first when present: the passages actually given to
          the model (or used for the extractive answer), numbered [1..n] in that order;
          `keyword_only` when they came from keyword search alone (the vectors were still loading).
          It is left out only when search fails or the run is cancelled before searching.
        - Then zero or more TokenEvents, the answer text as it arrives (before them, while its model thinks in a
          `<think>` block, ThinkingEvents counting it, a few a second at most).
        - Then exactly one terminal event, and nothing after it:
          * DoneEvent(answer, mode, cited, notice): `answer` is the final text with invalid
            citations removed and replaces whatever the tokens built up; `cited` are the
            passages cited (or the top few when none are cited); `mode` is 'llm' or
            'extractive'; `cached` when it is a stored answer replayed (one TokenEvent with all of
            it). No passages -> a DoneEvent saying nothing relevant was found (no model call).
            Cancelled -> a DoneEvent with the partial text, notice STOPPED and its `ending`
            (stopped); cut at the reply's size limit -> the text received, a notice saying so and
            its `ending` (cut); a whole reply without a word of answer -> no text, notice EMPTY_ANSWER
            and its `ending` (empty).
          * ErrorEvent(message, partial): the model call (or the search) failed; `partial` is
            the text received before a stream was cut, its citations cleaned as a DoneEvent's are.
            No DoneEvent follows.
        """
        try:
            with sent.recording("rewrite") as rewrites:  # the model calls made before the answer's ("What was sent")
                query = self._standalone_query(question, history, cancel)
            if cancelled(cancel):
                notice, ending = stopped()
                yield DoneEvent("", self.mode, (), notice, ending=ending)
                return
            with sent.recording("translation") as translations:
                found = self.search(query, int(self.settings.top_k))
            hits = list(found)
        except DesktopRagError as exc:
            yield ErrorEvent(Reason.of(exc))
            return
        # vectors still loading (keyword only) and the translations searched: the SourcesEvent says so
        searched = SourcesEvent((), query, bool(getattr(found, "keyword_only", False)),
                                tuple(getattr(found, "translations", ())))
        if not hits:
            yield searched
            yield DoneEvent(message("nothing_found", _language(question)), self.mode)
            return
        if self.llm is None:
            yield from self._extractive(question, hits, searched, cancel)
        else:
            yield from self._generate(question, hits, history, searched, cancel, refresh, (*rewrites, *translations))

    # ---- steps ----

    def _standalone_query(
        self, question: str, history: Sequence[ChatTurn], cancel: threading.Event | None = None
    ) -> str:
        """The question rewritten to stand alone (model first, then the rule); as is without history or when it
        already stands alone (so a repeated question is the same query, and its stored answer fits)."""
        if not history or not is_follow_up(question):
            return question
        if self.llm is not None:
            rewritten = SideRequests(self.llm, self.thinking).complete(
                rewrite_query_messages(question, history), _REWRITE_MAX_TOKENS, "rewrite", cancel)
            cleaned = _clean_rewrite(rewritten)
            if cleaned:
                return cleaned
            if rewritten.strip():
                log.warning("The question's rewrite is not used: its first line is longer than %d characters",
                            _MAX_REWRITE_CHARS)
        return rule_based_standalone_query(question, history)

    def _generate(
        self,
        question: str,
        hits: list[Hit],
        history: Sequence[ChatTurn],
        searched: SourcesEvent,
        cancel: threading.Event | None,
        refresh: bool = False,
        earlier: Sequence[SentPrompt] = (),
    ) -> Iterator[AnswerEvent]:
        assert self.llm is not None
        query = searched.query
        key = self.replay.key(question, query, hits) if self.replay is not None and not searched.keyword_only else None
        stored = None if key is None or refresh else self.replay.get(key, hits, question)
        thinks = self.thinking.thinks() if self.thinking is not None else None
        searched = dataclasses.replace(searched, thinks=thinks, thinking_chars=self.llm.config.thinking_chars)
        if stored is not None:
            text, used, cited, prompt = stored
            yield dataclasses.replace(searched, hits=tuple(used), prompt=prompt)
            yield TokenEvent(text)
            yield DoneEvent(text, "llm", tuple(cited), "", cached=True)
            return
        retrieved = hits
        budget = int(getattr(self.settings, "context_budget_chars", 8000))
        hits = ordered_passages(question, hits, self.similarity, self.topics_of)  # the extractive answer's order
        if self.compress is not None:
            hits = self.compress(query, hits)
        messages, used = build_messages(question, hits, history, budget)
        prompt = dataclasses.replace(sent_prompt(messages, used, self.llm.config.model), earlier=tuple(earlier))
        yield dataclasses.replace(searched, hits=tuple(used), prompt=prompt)
        done = yield from streamed_reply(self.llm, messages, used, cancel, self.thinking, thinks,
                                         fallback=FALLBACK_CITED)
        if done is None:  # stopped, cut or failed: said
            return
        if key is not None and not done.notice:  # complete answers only: never a stopped, cut, empty or failed one
            if not history:
                self.replay.put(key, done.answer, done.mode, retrieved, used, done.cited, prompt)
            elif refresh:  # never keep what a conversation's history shaped; Regenerate drops the stored one
                self.replay.forget(key)
        yield done

    def _extractive(
        self, question: str, hits: list[Hit], searched: SourcesEvent, cancel: threading.Event | None
    ) -> Iterator[AnswerEvent]:
        text, hits = quoted_answer(question, hits, similarity=self.similarity, topics_of=self.topics_of,
                                   model=self.model)  # hits with the quoted spans
        yield dataclasses.replace(searched, hits=tuple(hits))
        emitted: list[str] = []
        for piece in re.split(r"(?<=\n)", text):
            if cancelled(cancel):
                yield done_event("".join(emitted), hits, "extractive", *stopped(), fallback=FALLBACK_CITED)
                return
            if piece:
                emitted.append(piece)
                yield TokenEvent(piece)
        yield done_event(text, hits, "extractive", self._extractive_notice(question), fallback=FALLBACK_CITED)

    def _extractive_notice(self, question: str) -> str:
        """The answer's one notice that no model is set (the answer text has no label; the banner explains more)."""
        language = _language(question)
        problem = None if language == "zh" else config_problem(self.settings)
        if problem is None or problem.code == "no_model_configured":
            return message("extractive_notice", language)
        return message("extractive_notice_problem", language, problem=problem)


def _language(question: str) -> str:
    """The language the answer's own sentences are written in: Chinese for a Chinese question."""
    return "zh" if has_cjk(question) else "en"


def _clean_rewrite(text: str) -> str:
    """First non-empty line of the model's rewrite, without quotes or a 'Query:' prefix."""
    line = next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "")
    line = re.sub(r"^(standalone query|query|查询)\s*[:：]\s*", "", line, flags=re.IGNORECASE)
    line = line.strip("\"'“”‘’「」` ")
    return line if len(line) <= _MAX_REWRITE_CHARS else ""
