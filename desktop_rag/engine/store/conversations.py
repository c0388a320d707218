"""Conversations and their messages, persisted in the store by short transactions of their own."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.values import ChatTurn, Ending, Hit, SentPrompt

# Who writes here: whichever thread asks or edits (in the app: the reader for a new, renamed or deleted
# conversation, the answer worker for the turns of an answer), each change one short transaction of its
# own (BEGIN IMMEDIATE; SQLite's busy timeout orders it with the other writers). Conversations are not
# part of the index (no source, file, chunk, vector or collection refers to one), so they are outside the
# index worker's writes and never take the library's writer lock (docs/ARCHITECTURE.md: threads, and who writes what).


@dataclass(frozen=True)
class Conversation:
    id: int
    title: str
    updated_at: float


def create(store: Store, title: str, collection: int | None = None) -> int:
    """A new conversation that asks within `collection` (None: all collections); its id."""
    now = time.time()
    with store.transaction() as db:
        return db.execute("INSERT INTO conversations (title, created_at, updated_at, collection_id) "
                          "VALUES (?, ?, ?, ?) RETURNING id", (title, now, now, collection)).fetchone()[0]


def listing(store: Store) -> list[Conversation]:
    rows = store.db.execute("SELECT id, title, updated_at FROM conversations ORDER BY updated_at DESC, id DESC")
    return [Conversation(*r) for r in rows]


def rename(store: Store, conversation_id: int, title: str) -> None:
    with store.transaction() as db:
        db.execute("UPDATE conversations SET title = ? WHERE id = ?", (title.strip() or "Untitled", conversation_id))


def delete(store: Store, conversation_id: int) -> None:
    with store.transaction() as db:
        db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))


def add_message(store: Store, conversation_id: int, turn: ChatTurn) -> bool:
    """Keep a turn (with what its answer sent, and how it ended when it ended short); False, and nothing kept, when
    the conversation is gone (deleted while its answer was streaming: the turn goes with it)."""
    sources = json.dumps([_hit_to_dict(h) for h in turn.sources], ensure_ascii=False)
    sent = turn.prompt.to_json() if turn.prompt is not None else _searched_to_json(turn.translations, turn.query)
    ended = turn.ending.to_json() if turn.ending is not None else None
    now = time.time()
    with store.transaction() as db:
        added = db.execute(
            "INSERT INTO messages (conversation_id, role, content, sources_json, created_at, sent_json, ended) "
            "SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?)",
            (conversation_id, turn.role, turn.content, sources, now, sent, ended, conversation_id),
        ).rowcount
        db.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (now, conversation_id))
    return added == 1


def messages(store: Store, conversation_id: int) -> list[ChatTurn]:
    rows = store.db.execute(
        "SELECT role, content, sources_json, sent_json, ended FROM messages WHERE conversation_id = ? ORDER BY id",
        (conversation_id,),
    )
    return [ChatTurn(role, content, tuple(_hit_from_dict(d) for d in json.loads(src)), SentPrompt.from_json(prompt),
                     ending=Ending.from_json(ended))
            if role == "assistant" else ChatTurn(role, content, translations=_translations(prompt),
                                                 query=_query(prompt))
            for role, content, src, prompt, ended in rows]


def _searched_to_json(translations: tuple[tuple[str, str], ...], query: str) -> str | None:
    """A question's `sent_json`: what it was searched as (`{"translations": [[language, text], ...], "query": ...}`),
    kept in the column an answer's row keeps what it sent (no column of its own: an older app reads it as no
    prompt)."""
    if not translations and not query:
        return None
    return json.dumps({"translations": [list(t) for t in translations], "query": query}, ensure_ascii=False)


def _translations(text: str | None) -> tuple[tuple[str, str], ...]:
    """A question's translations as `_searched_to_json` kept them; none from a row without them or a damaged one."""
    try:
        return tuple((str(language), str(translated)) for language, translated in json.loads(text)["translations"])
    except (TypeError, ValueError, KeyError, RecursionError):
        return ()


def _query(text: str | None) -> str:
    """A question's searched words as `_searched_to_json` kept them; "" from a row without them or a damaged one."""
    try:
        query = json.loads(text).get("query", "")
    except (TypeError, ValueError, AttributeError, RecursionError):
        return ""
    return query if isinstance(query, str) else ""


def _hit_from_dict(d: dict) -> Hit:
    return Hit(**{**d, "focus": tuple((int(a), int(b)) for a, b in d.get("focus", ())), "ocr": d.get("ocr") is True})


def _hit_to_dict(hit: Hit) -> dict:
    return {
        "chunk_id": hit.chunk_id, "score": hit.score, "path": hit.path, "page": hit.page, "heading": hit.heading,
        "text": hit.text, "file_id": hit.file_id, "ordinal": hit.ordinal, "char_start": hit.char_start,
        "char_end": hit.char_end, "focus": [list(span) for span in hit.focus], "ocr": hit.ocr,
    }
