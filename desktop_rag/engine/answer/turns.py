"""A question and its answer (or summary) saved as a conversation's two turns once the answer's events are out, and
a conversation's turns read back."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable, Iterator

from desktop_rag.engine.store import conversations
from desktop_rag.engine.store.given_passages import GivenPassages
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.answer.events import AnswerEvent, DoneEvent, ErrorEvent, SourcesEvent
from desktop_rag.engine.answer.reasoning import without_thinking
from desktop_rag.engine.errors import ConfirmationNeeded, DesktopRagError
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import ANSWER_FAILED, ChatTurn, Ending, Hit

log = logging.getLogger(__name__)


def noted(events: Iterable[AnswerEvent], given: GivenPassages) -> Iterator[AnswerEvent]:
    """The events; the chunks behind the passages noted as they are given (`given.now` finds them at the save)."""
    for event in events:
        if isinstance(event, SourcesEvent):
            given.note(event.hits)
        yield event


def saved(events: Iterable[AnswerEvent], store: Callable[[], Store], conversation_id: int | None,
          question: str, placed: Callable[[tuple[Hit, ...]], tuple[Hit, ...]]) -> Iterator[AnswerEvent]:
    """The events as they come; then, with a conversation, `question` (with what it was searched as: its
    translations, the follow-up made to stand alone) and the answer (the finished one, or what a failed one had
    said) with every passage it was given, in order (its `[n]` is `sources[n - 1]`), where the library holds it
    now (`placed`: `GivenPassages.now`, for an edit of its file indexed while the answer streamed). An answer
    that ended short (stopped, cut at its size limit, failed, empty) is kept with its ending, even without a word
    of text (stopped before a thinking model began its answer), so the reopened conversation says what happened.

    The rule for an error the events raise (a person's, `DesktopRagError`) before the answer's last event ("Ask
    this document" on a file no longer in the library, a folder that is not one, a library that went away): the
    question and that error are kept as a failed turn, then it is raised, so reopening shows what was asked and
    why it failed; unless it asks for a confirmation the person has not given yet (`ConfirmationNeeded`: a summary
    over the request limit): nothing is a turn yet. Any other exception is a fault, not an answer: nothing kept."""
    passages: tuple = ()
    answer, prompt, translations, query = "", None, (), ""
    ending: Ending | None = None
    finished = False
    failure: DesktopRagError | None = None
    try:
        for event in events:
            if isinstance(event, SourcesEvent):
                passages, prompt = event.hits, event.prompt  # what the answer sent ("What was sent"), kept with it
                translations = event.translations  # "Also searched in ...", shown again under the reopened question
                query = event.query if event.query != question else ""  # the sources' highlights, again
            elif isinstance(event, DoneEvent):
                answer, ending, finished = event.answer, event.ending, True
            elif isinstance(event, ErrorEvent):
                answer, ending, finished = event.partial, Ending(ANSWER_FAILED, event.message), True
            yield event
    except DesktopRagError as exc:
        if not conversation_id or isinstance(exc, ConfirmationNeeded):
            raise
        failure = exc
        if not finished:
            ending = Ending(ANSWER_FAILED, Reason.of(exc))
    if conversation_id:
        try:
            asked = ChatTurn("user", question, translations=translations, query=query)
            conversations.add_message(store(), conversation_id, asked)
            if answer or ending is not None:
                conversations.add_message(store(), conversation_id,
                                          ChatTurn("assistant", answer, placed(passages), prompt, ending=ending))
        except Exception:
            if failure is None:
                raise
            # the library itself may be what failed: its error is the one raised
            log.warning("The question that failed was not kept in its conversation", exc_info=True)
    if failure is not None:
        raise failure


def read(store: Store, conversation_id: int) -> list[ChatTurn]:
    """A conversation's turns; an answer without thinking it holds (one kept before that was told apart)."""
    return [dataclasses.replace(turn, content=without_thinking(turn.content)) if turn.role == "assistant" else turn
            for turn in conversations.messages(store, conversation_id)]
