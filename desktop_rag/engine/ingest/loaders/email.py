"""E-mail (.eml, .mbox): each message's subject, sender, date and body; its attachments as documents of their own.

Standard library `email` (policy.default: RFC 2047 headers such as =?GB2312?B?...?= decoded). The body is the
text/plain part, else the HTML part through the web-page reader. A message is one or more sections headed by
its subject; in an mbox `Section.page` is the message's number (1-based), in an .eml it is None. The header
section lists every attachment by name, so a search for a file name finds the message.

An attachment of a type the app reads (text, HTML, PDF, Word, spreadsheets, slides, ...; a forwarded message,
message/rfc822 or .eml, as a message) becomes an AttachedDocument: the library indexes it as a document of its
own below the message's path ("m.eml/2/report.pdf"), cited with its own pages, slides or sheets. Each is read
through its own loader from a private temporary folder (PDFs without OCR, to keep a mailbox's time bounded). A
picture is read by text recognition only when it looks like a scan or a photo of a page: attached (not inline,
no Content-ID: signatures and logos are inline) and at least MIN_PICTURE_PIXELS large with no side under
MIN_PICTURE_SIDE (icons and banners are smaller), at most MAX_PICTURES per file, and only when OCR is on. A
mailbox inside a message is not unpacked. A forwarded message's own attachments are documents too, at most
MAX_NESTING messages deep. `attachment_document` reads one again by its `part` for the viewer, by the same walk.

Bounds: at most MAX_ATTACHMENTS per message and MAX_ATTACHED per file, MAX_ATTACHMENT_BYTES each and
MAX_ATTACHMENT_TOTAL per file; each attachment is read within ATTACHMENT_SECONDS (`time_budget`; the seconds are
added to the reader's time limit for the file first), all of a file's within ATTACHMENTS_SECONDS. One over a bound
is not read and the file's note names the bound; one whose reading fails (a zip bomb, a damaged file) is not read
and the note gives its reason (`email_notes`); the message is kept either way. A message with more than MAX_PARTS
MIME parts (counted by its boundaries' delimiter lines: a part needs no header) or MAX_MULTIPARTS multipart
containers (a crafted one: Python's parser needs seconds for 10,000 parts and recursion for deep nesting) is
refused before it is parsed; in an mbox a message that cannot be read is left out, named in the note, and the
others are read.

An mbox is split at "From " lines that start the file or follow a blank line (mboxo/mboxrd; ">From " unescaped);
the mailbox module is not used because it opens the file for writing.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
import time
import warnings
from dataclasses import dataclass, field, replace
from email import policy
from email.message import Message
from email.parser import BytesParser
from pathlib import Path, PurePath

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import SUPPORTED_SUFFIXES, reader_for
from desktop_rag.engine.ingest.cleaning import normalize_text
from desktop_rag.engine.ingest.loaders import LoadContext, check_file, failure_words, format_mb, load
from desktop_rag.engine.ingest.loaders.blocks import TABLE_CHARS, Block, blocks_to_sections, table_chars
from desktop_rag.engine.ingest.loaders.email_mime import (
    attachment_data, attachment_name, body_part, header, html_of, is_attachment, leaves, part_count, text_of)
from desktop_rag.engine.ingest.loaders.email_notes import attachment_notes
from desktop_rag.engine.ingest.loaders.left_out import LeftOut
from desktop_rag.engine.ingest.loaders.time_budget import OverBudget, time_budget
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.ingest.documents import AttachedDocument, ParsedDocument, Section
from desktop_rag.engine.reasons import Reason

MAX_MESSAGES = 50_000  # in one mbox
MAX_PARTS = 500  # MIME parts of one message
MAX_MULTIPARTS = 50  # multipart containers of one message (bounds the nesting the parser recurses into)
MAX_NESTING = 3  # forwarded messages inside forwarded messages
MAX_ATTACHMENTS = 20  # read per message
MAX_ATTACHED = 1_000  # attachments read per file (an mbox)
MAX_ATTACHMENT_BYTES = 20 << 20
MAX_ATTACHMENT_TOTAL = 100 << 20  # per file
MAX_PICTURES = 5  # pictures read by text recognition per file
ATTACHMENT_SECONDS = 60.0  # reading one attachment (its budget is added to the reader's time limit for the file)
ATTACHMENTS_SECONDS = 15 * 60.0  # reading all attachments of one file
MIN_PICTURE_PIXELS = 400_000  # about 800 x 500: a page, a receipt or a screenshot of text; icons are smaller
MIN_PICTURE_SIDE = 300
_PICTURES = frozenset(reader_for("x.png").suffixes)
_READABLE = frozenset(SUPPORTED_SUFFIXES) - {".mbox"}  # a mailbox inside a message: not unpacked
_MULTIPART = re.compile(rb"^content-type:[ \t]*multipart/", re.IGNORECASE | re.MULTILINE)
_MBOX_FROM = re.compile(rb"(?:\A|\r?\n\r?\n)From [^\n]*\n")
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)


@dataclass
class _Reading:
    """One file's reading: its context (OCR on: pictures are read; page: a picture's recognition reported as for a
    scanned page; more_time: an attachment's budget added to the reader's; the row-group size), what its
    attachments may still use, what was read, what was not and why."""

    context: LoadContext = field(default_factory=lambda: LoadContext(ocr=False))
    bytes_left: int = field(default_factory=lambda: MAX_ATTACHMENT_TOTAL)  # the bounds as they are now (tests)
    pictures_left: int = field(default_factory=lambda: MAX_PICTURES)
    seconds_left: float = field(default_factory=lambda: ATTACHMENTS_SECONDS)
    attached: list[AttachedDocument] = field(default_factory=list)
    over_bounds: list[tuple[str, str]] = field(default_factory=list)  # (name, the limit that left it out)
    not_read: list[tuple[str, Reason]] = field(default_factory=list)  # (name, why its reading failed)
    left_out: LeftOut = field(default_factory=LeftOut)  # messages of an mbox

    def note(self) -> tuple[Phrase, ...]:
        limits = {"per_message": MAX_ATTACHMENTS, "per_file": f"{MAX_ATTACHED:,}",
                  "size": format_mb(MAX_ATTACHMENT_BYTES), "total": format_mb(MAX_ATTACHMENT_TOTAL),
                  "nesting": MAX_NESTING, "pictures": MAX_PICTURES,
                  "time": f"{ATTACHMENT_SECONDS:g}", "time_total": f"{ATTACHMENTS_SECONDS / 60:g}"}
        return self.left_out.notes() + attachment_notes(self.over_bounds, limits, self.not_read)


def _parse(raw: bytes) -> Message:
    if len(_MULTIPART.findall(raw)) > MAX_MULTIPARTS or part_count(raw, MAX_MULTIPARTS + 1) > MAX_PARTS:
        raise LoadError.coded("email_too_many_parts", n=MAX_PARTS)
    return BytesParser(policy=policy.default).parsebytes(raw)


def _attachments(msg: Message) -> list[tuple[Message, str]]:
    """A message's attachments in order with their names (forwarded messages included)."""
    found = []
    for index, (part, _in_alternative) in enumerate(leaves(msg), 1):
        if is_attachment(part) or part.get_content_type() == "message/rfc822":
            found.append((part, attachment_name(part, index, _READABLE)))
    return found


def _message_sections(msg: Message, page: int | None, names: list[str], group_chars: int) -> list[Section]:
    """A message's header (its attachments listed by `names`) and body, headed by its subject (an HTML body's
    tables in row groups of `group_chars`)."""
    subject = header(msg, "subject")
    path = (subject,) if subject else ()
    body = body_part(msg)
    texts: list[str] = []
    html: list[Block] = []
    for part, in_alternative in leaves(msg):
        if part is body:
            if part.get_content_subtype() == "html":
                html.extend(html_of(part))
            else:
                texts.append(text_of(part))
        elif not is_attachment(part) and part.get_content_maintype() == "text" and not in_alternative:
            texts.append(text_of(part))  # more body text after an inline picture (Apple Mail)
    lines = [f"{label}: {value}" for label, key in (("Subject", "subject"), ("From", "from"), ("To", "to"),
                                                     ("Date", "date")) if (value := header(msg, key))]
    if names:
        lines.append("Attachments: " + ", ".join(names))
    first = normalize_text("\n".join(lines) + "\n\n" + "\n\n".join(t for t in texts if t.strip()))
    sections = [Section(text=first, page=page, heading_path=path)] if first else []
    if html:
        sections.extend(blocks_to_sections(html, path, page, group_chars))
    return sections


def _read_message(msg: Message, page: int | None, reading: _Reading, prefix: str, depth: int) -> list[Section]:
    """A message's sections; its readable attachments go to `reading.attached`, numbered after `prefix`."""
    attachments = _attachments(msg)
    sections = _message_sections(msg, page, [name for _, name in attachments], table_chars(reading.context))
    for number, (part, name) in enumerate(attachments, 1):
        suffix = PurePath(name).suffix.lower()
        if suffix not in _READABLE:
            continue
        data = attachment_data(part)
        picture = suffix in _PICTURES
        if not data or (picture and not _looks_scanned(part, data, reading)):
            continue  # listed in the header only
        if (limit := _over_limit(number, len(data), suffix, picture, reading, depth)) is not None:
            reading.over_bounds.append((name, limit))
            continue
        reading.bytes_left -= len(data)
        reading.pictures_left -= picture
        where, slot = f"{prefix}{number}/{name}", len(reading.attached)  # before a forwarded message's own
        document = _timed_attachment(data, suffix, reading, where, depth, name)
        if document is not None and any(s.text.strip() for s in document.sections):
            reading.attached.insert(slot, AttachedDocument(where, len(data), hashlib.sha256(data).hexdigest(),
                                                           document))
    return sections


def _over_limit(number: int, size: int, suffix: str, picture: bool, reading: _Reading, depth: int) -> str | None:
    """The limit (email_notes.LIMITS) that leaves this attachment unread, or None."""
    checks = (("per_message", number > MAX_ATTACHMENTS), ("per_file", len(reading.attached) >= MAX_ATTACHED),
              ("size", size > MAX_ATTACHMENT_BYTES), ("total", size > reading.bytes_left),
              ("nesting", suffix == ".eml" and depth >= MAX_NESTING),
              ("pictures", picture and reading.pictures_left <= 0),
              ("time_total", depth == 0 and reading.seconds_left <= 0))
    return next((limit for limit, over in checks if over), None)


def _timed_attachment(data: bytes, suffix: str, reading: _Reading, where: str, depth: int,
                      name: str) -> ParsedDocument | None:
    """One attachment read within its own time budget (ATTACHMENT_SECONDS, and what is left of the file's
    ATTACHMENTS_SECONDS), the budget added to the reader's limit first; None when it was not read (the reason goes
    to the note): an unreadable attachment, or a slow one, does not cost the message."""
    seconds = min(ATTACHMENT_SECONDS, reading.seconds_left) if depth == 0 else ATTACHMENT_SECONDS
    if depth == 0:  # one inside a forwarded message is read within that message's budget
        reading.context.more_time(seconds)
    started = time.monotonic()
    try:
        with time_budget(seconds) as budget:
            return _attached_document(data, suffix, reading, where, depth)
    except OverBudget:
        if not budget.expired:
            raise  # an outer budget (the forwarded message this one sits in) ran out
        reading.over_bounds.append((name, "time"))
    except LoadError as exc:
        reading.not_read.append((name, Reason.of(exc)))
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 - a forwarded message the e-mail library cannot take, for one
        reading.not_read.append((name, Reason.coded("reader_failed", error=failure_words(exc))))
    finally:
        if depth == 0:
            reading.seconds_left -= time.monotonic() - started
    return None


def _looks_scanned(part: Message, data: bytes, reading: _Reading) -> bool:
    """Whether a picture is read: OCR on, attached rather than inline, and large enough to be a page (its size
    from its header; one that cannot be opened is not read here)."""
    import io

    from PIL import Image

    try:
        attached = part.get_content_disposition() == "attachment" and part.get("content-id") is None
    except Exception:  # a malformed header
        attached = False
    if not (reading.context.ocr and attached):
        return False
    try:
        with warnings.catch_warnings():  # the size is all that is read: Pillow's bomb warning would reach a terminal
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
    except Exception:  # not a picture, or one whose header claims a bomb's size
        return False
    return width * height >= MIN_PICTURE_PIXELS and min(width, height) >= MIN_PICTURE_SIDE


def _attached_document(data: bytes, suffix: str, reading: _Reading, where: str, depth: int) -> ParsedDocument:
    """One attachment read as a document: a message by this reader (its attachments follow it), anything else
    by its own loader from a private temporary folder."""
    if suffix == ".eml":
        return ParsedDocument(sections=tuple(_read_message(_parse(data), None, reading, f"{where}/", depth + 1)))
    with tempfile.TemporaryDirectory(prefix="desktop-rag-mail-") as folder:
        path = Path(folder) / f"attachment{suffix}"
        path.write_bytes(data)
        ocr = reading.context.ocr and suffix in _PICTURES  # PDFs: their text layer only
        return load(path, max_bytes=MAX_ATTACHMENT_BYTES, context=replace(reading.context, ocr=ocr, password=""))


def load_eml(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load one message (.eml)."""
    raw = path.read_bytes()
    if not raw.strip():
        raise LoadError.coded("email_empty")
    reading = _Reading(context) if context else _Reading()
    sections = _read_message(_parse(raw), None, reading, "", 0)
    if not any(s.text for s in sections):
        raise LoadError.coded("email_no_text")
    return ParsedDocument(sections=tuple(sections), notes=reading.note(), attachments=tuple(reading.attached))


def mbox_messages(data: bytes) -> list[bytes]:
    """The raw messages of an mbox, "From " separator lines removed and ">From " lines unescaped."""
    starts = [(m.start(), m.end()) for m in _MBOX_FROM.finditer(data)]
    if not starts or starts[0][0] != 0:
        raise LoadError.coded("not_mbox")
    ends = [s for s, _ in starts[1:]] + [len(data)]
    return [_ESCAPED_FROM.sub(rb"\1", data[body:end]) for (_, body), end in zip(starts, ends)]


def load_mbox(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a mailbox (.mbox): page = message number; a message that cannot be read (a crafted one, one the e-mail
    library fails on) is left out, named in the note, and the others are read."""
    messages = mbox_messages(path.read_bytes())
    if len(messages) > MAX_MESSAGES:
        raise LoadError.coded("mbox_too_many", n=len(messages), limit=MAX_MESSAGES)
    reading, sections = _Reading(context) if context else _Reading(), []
    for number, raw in enumerate(messages, 1):
        attached = len(reading.attached)
        try:
            sections.extend(_read_message(_parse(raw), number, reading, f"{number}.", 0))
        except (MemoryError, RecursionError):
            raise
        except Exception as exc:  # noqa: BLE001 - this message alone, whatever the e-mail library raised
            del reading.attached[attached:]  # its attachments go with it
            reading.left_out.failed("message", number, exc)
    if not sections:
        raise reading.left_out.failure() or LoadError.coded("mbox_no_text")
    return ParsedDocument(sections=tuple(sections), notes=reading.note(), attachments=tuple(reading.attached))


def load_email(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """One loader for the registry's e-mail entry: an .mbox as a mailbox, anything else as one message."""
    return (load_mbox if path.suffix.lower() == ".mbox" else load_eml)(path, context)


# ---- one attachment again, for the viewer ----


def attachment_bytes(carrier: Path, part: str, max_bytes: int = 0) -> bytes:
    """The bytes of the attachment at `part` (AttachedDocument.part) inside the mail file `carrier` (at most
    `max_bytes`, 0: any size), found by the walk that indexed it; LoadError when the message no longer holds it
    or it is over the bound an attachment is read within."""
    pieces = part.split("/")
    if len(pieces) % 2 or not pieces:
        raise LoadError.coded("attachment_gone", name=part)
    check_file(carrier, max_bytes)
    data = carrier.read_bytes()
    if carrier.suffix.lower() == ".mbox":  # "7.1": the 7th message's first attachment
        message, _, pieces[0] = pieces[0].partition(".")
        messages = mbox_messages(data)
        if not message.isdigit() or not 1 <= int(message) <= len(messages):
            raise LoadError.coded("attachment_gone", name=part)
        data = messages[int(message) - 1]
    for number, name in zip(pieces[::2], pieces[1::2]):
        found = _attachments(_parse(data))
        if not number.isdigit() or not 1 <= int(number) <= len(found) or found[int(number) - 1][1] != name:
            raise LoadError.coded("attachment_gone", name=pieces[-1])
        data = attachment_data(found[int(number) - 1][0])
    if len(data) > MAX_ATTACHMENT_BYTES:  # not the attachment that was indexed
        raise LoadError.coded("attachment_gone", name=pieces[-1])
    return data


def attachment_document(carrier: Path, part: str, table_chars: int = TABLE_CHARS,
                        max_bytes: int = 0) -> ParsedDocument:
    """The attachment at `part` read as it was indexed (its sections; its own attachments are not read)."""
    data = attachment_bytes(carrier, part, max_bytes)
    suffix = PurePath(part).suffix.lower()
    reading = _Reading(LoadContext(table_chars=table_chars), bytes_left=0)  # its own attachments: over the bound
    return _attached_document(data, suffix, reading, part, MAX_NESTING)
