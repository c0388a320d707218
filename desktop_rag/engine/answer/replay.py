"""Replaying stored answers: the key of an answer, and the passages and citations it is shown with again.

The key holds the question (whitespace-normalised) and the search query it became, every retrieved passage as the
request shows it (its file's path, page and heading and a hash of its text, in rank order: not its chunk id, so an
answer stays valid for an edited file's unchanged passages, whose links follow them to their new chunks:
store/carried_references.py), and a fingerprint of whatever else shapes the answer: model,
endpoint, provider, temperature, answer size, context budget and compression (`Engine.answerer` builds it).
So another model or endpoint never replays this one's answer, and a changed passage is another key (the stored
answer is removed too: store/answer_cache.py). Only complete answers made without a conversation's history are
stored (Answerer: not stopped, cut, empty, failed or given earlier turns), so what one conversation said never
reaches another chat, the CLI or an MCP client; an answer made in a conversation keeps its id and goes with it.
An answer is replayed without thinking it holds (`reasoning.without_thinking`: stored before that was told apart).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Sequence

from desktop_rag.engine.answer.citations import clean_citations
from desktop_rag.engine.answer.reasoning import without_thinking
from desktop_rag.engine.store import answer_cache, grades
from desktop_rag.engine.store.answer_cache import StoredAnswer
from desktop_rag.engine.store.given_passages import inside
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.text.questions import normalised_question
from desktop_rag.engine.store.values import Hit, SentPrompt


class AnswerReplay:
    """Stored answers of one library for one answer configuration (`fingerprint`)."""

    def __init__(self, store: Callable[[], Store], fingerprint: dict, writable: bool = True,
                 conversation_id: int | None = None, feedback: bool = True) -> None:
        self._store, self._writable, self._conversation = store, writable, conversation_id
        self._feedback = feedback  # Settings.feedback: an answer graded wrong or refused is never replayed
        self._fingerprint = json.dumps(fingerprint, sort_keys=True, ensure_ascii=False)

    def key(self, question: str, query: str, hits: Sequence[Hit]) -> str:
        passages = [[h.path, h.page, h.heading, hashlib.sha256(h.text.encode("utf-8")).hexdigest()] for h in hits]
        material = json.dumps([" ".join(question.split()), " ".join(query.split()), passages, self._fingerprint],
                              ensure_ascii=False)
        return hashlib.sha256(material.encode("utf-8")).hexdigest()

    def get(self, key: str, hits: Sequence[Hit],
            question: str = "") -> tuple[str, list[Hit], list[Hit], SentPrompt | None] | None:
        """(answer, passages sent, passages cited, what was sent then) of a stored answer for these hits, or None
        (also, with feedback on, when the user graded that answer to `question` wrong or refused)."""
        db = self._store().db
        stored = answer_cache.get(db, key)
        if stored is None or any(i >= len(hits) for i, _ in stored.passages):
            return None
        if self._feedback and grades.graded_down(db, normalised_question(question), stored.answer):
            return None
        used = [dataclasses.replace(hits[i], focus=focus) for i, focus in stored.passages]
        answer = without_thinking(stored.answer)  # one stored before thinking was told from the answer
        numbers = stored.cited if answer == stored.answer else clean_citations(answer, len(used))[1]
        cited = [used[n - 1] for n in numbers if 0 < n <= len(used)]
        return answer, used, cited, SentPrompt.from_json(stored.sent)

    def put(self, key: str, answer: str, mode: str, hits: Sequence[Hit], used: Sequence[Hit],
            cited: Sequence[Hit], prompt: SentPrompt | None = None) -> None:
        if not self._writable:
            return
        index = {h.chunk_id: i for i, h in enumerate(hits)}
        numbers = {h.chunk_id: n for n, h in enumerate(used, 1)}
        stored = StoredAnswer(answer, mode, tuple((index[h.chunk_id], h.focus) for h in used),
                              tuple(numbers[h.chunk_id] for h in cited), prompt.to_json() if prompt else None)
        store = self._store()
        with store.transaction() as db:  # linked to every chunk of a passage: an edit of any drops the answer
            linked = [h.chunk_id for h in hits] + [row[0] for h in hits if h.file_id for row in inside(store, h)]
            answer_cache.put(db, key, stored, linked, self._conversation)

    def forget(self, key: str) -> None:
        """Remove the answer stored under `key` (Regenerate in a conversation: the new answer is not kept)."""
        if self._writable:
            with self._store().transaction() as db:
                answer_cache.forget(db, key)
