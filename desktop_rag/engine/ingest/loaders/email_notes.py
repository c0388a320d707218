"""What an e-mail file's note says about the attachments it did not read: one note per limit that left some out,
naming that limit ("over the limit of 20 attachments a message", "nested more than 3 messages deep"), and one per
attachment that could not be read, with its reason (a zip bomb, a damaged file, a reading that took too long)."""

from __future__ import annotations

from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.reasons import Reason

LIMITS = ("per_message", "per_file", "size", "total", "nesting", "pictures", "time", "time_total")
MAX_NAMES = 5  # attachment names a note lists
MAX_REASONS = 5  # attachments whose reason is given one by one


def _names(names: list[str]) -> str:
    return ", ".join(names[:MAX_NAMES]) + (" ..." if len(names) > MAX_NAMES else "")


def attachment_notes(over: list[tuple[str, str]], limits: dict[str, object],
                     not_read: list[tuple[str, Reason]]) -> tuple[Phrase, ...]:
    """`over`: (name, limit) of attachments a limit left out (`limits` gives each limit's value); `not_read`:
    (name, reason) of attachments whose reading failed."""
    notes = []
    for limit in LIMITS:
        names = [name for name, which in over if which == limit]
        if names:
            notes.append(Phrase(f"note.attachments_over.{limit}", n=len(names), limit=limits[limit],
                                names=_names(names)))
    for name, reason in not_read[:MAX_REASONS]:
        notes.append(Phrase("note.attachment_not_read", name=name, reason=reason))
    if len(not_read) > MAX_REASONS:
        notes.append(Phrase("note.attachments_not_read_more", n=len(not_read) - MAX_REASONS))
    return tuple(notes)
