"""What a question asks, and where: its text (a blank one refused), the collection and the restriction it is asked
within, and the one document whose summary it asks for ("Summarise X": summary_intent.py). `Engine.ask`, `search`
and `summary_question_plan` start here."""

from __future__ import annotations

from collections.abc import Sequence

from desktop_rag.engine.answer.summary_intent import asked_summary
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.ingest.valid_text import valid_text
from desktop_rag.engine.store import collections
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.store.restriction import build
from desktop_rag.engine.store.scope import Restriction


def asked_text(text: str) -> str:
    """A question or a search as valid text; UsageError when it is blank (an answer to nothing quoted whatever
    ranked first, or sent the model an empty question; a search of nothing listed passages scored 1.0)."""
    if not str(text).strip():
        raise UsageError.coded("empty_question")
    return valid_text(text)


def asked_where(store: Store, question: str, conversation_id: int | None, collection: int | None,
                folders: Sequence[str], types: Sequence[str],
                files: Sequence[str]) -> tuple[int | None, Restriction, tuple[str, str] | None]:
    """Where `question` is asked (the collection, else the conversation's; the restriction: UsageError for a bad
    folder, file or type) and, when it asks for a document's summary, (that file, the question's language)."""
    if collection is None and conversation_id:
        collection = collections.conversation_collection(store, conversation_id)
    within = build(store, collection, folders, types, files)
    return collection, within, asked_summary(store, question, within)
