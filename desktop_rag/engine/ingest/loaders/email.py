"""E-mail (.eml, .mbox): each message's subject, sender, date and body, and the text of its attachments.

Standard library `email` (policy.default: RFC 2047 headers such as =?GB2312?B?...?= decoded). The body is the
text/plain part, else the HTML part through the web-page reader. A message is one or more sections headed by
its subject; in an mbox `Section.page` is the message's number (1-based), in an .eml it is None.

Attachments are read into sections of the same document, headed (subject, "attachment: NAME"), so a search
finds them and the citation names the message and the attachment: text and HTML directly, forwarded messages
(message/rfc822) as messages nested at most MAX_NESTING deep, and every other type the app reads (PDF, Word, ...)
through its own loader from a private temporary folder (PDFs without OCR, to keep a mailbox's time bounded).
Bounds: at most MAX_ATTACHMENTS per message and MAX_ATTACHMENT_BYTES each, MAX_ATTACHMENT_TOTAL per file; one
that is over a bound, unreadable or of another type is skipped and only its name is kept (the header lists
every attachment). A message with more than MAX_PARTS MIME parts or MAX_MULTIPARTS multipart containers (a
crafted one: Python's parser needs seconds for 10,000 parts and recursion for deep nesting) is refused before
it is parsed; in an mbox such a message is skipped and the others are read.

An mbox is split at "From " lines that start the file or follow a blank line (mboxo/mboxrd; ">From " unescaped);
the mailbox module is not used because it opens the file for writing.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from pathlib import Path, PurePath

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import SUPPORTED_SUFFIXES
from desktop_rag.engine.ingest.cleaning import normalize_text
from desktop_rag.engine.ingest.loaders import LoadContext, load
from desktop_rag.engine.ingest.loaders.blocks import TABLE_CHARS, Block, blocks_to_sections, table_chars
from desktop_rag.engine.ingest.loaders.html import decode_html, html_blocks
from desktop_rag.engine.types import ParsedDocument, Section

MAX_MESSAGES = 50_000  # in one mbox
MAX_PARTS = 500  # MIME parts of one message
MAX_MULTIPARTS = 50  # multipart containers of one message (bounds the nesting the parser recurses into)
MAX_NESTING = 3  # forwarded messages inside forwarded messages
MAX_ATTACHMENTS = 20  # read per message
MAX_ATTACHMENT_BYTES = 20 << 20
MAX_ATTACHMENT_TOTAL = 100 << 20  # per file
_TEXT_SUFFIXES = (".txt", ".md", ".markdown")
_HTML_SUFFIXES = (".html", ".htm")
_NOT_READ = (".png", ".jpg", ".jpeg", ".gif", ".tif", ".tiff", ".webp", ".bmp",  # signatures and logos: no OCR
             ".mbox")  # a mailbox inside a message: not unpacked
_UNIT = {".pdf": "page", ".pptx": "slide", ".epub": "chapter"}  # an attachment's units, named in its heading
_PART_HEADER = re.compile(rb"^content-type:", re.IGNORECASE | re.MULTILINE)
_MULTIPART = re.compile(rb"^content-type:[ \t]*multipart/", re.IGNORECASE | re.MULTILINE)
_MBOX_FROM = re.compile(rb"(?:\A|\r?\n\r?\n)From [^\n]*\n")
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)
_NAME_BAD = re.compile(r"[\x00-\x1f\x7f/\\]")



@dataclass
class _Budget:
    """What one file's attachments may still use, and the size of a table's row groups."""

    bytes_left: int = MAX_ATTACHMENT_TOTAL
    table_chars: int = TABLE_CHARS


def _header(msg: Message, name: str) -> str:
    """A header's decoded value ('' when absent or unreadable), on one line."""
    try:
        value = msg.get(name)
    except Exception:  # a malformed header the policy cannot parse
        value = None
    return " ".join(str(value).split()) if value is not None else ""


def _safe_name(name: str) -> str:
    return _NAME_BAD.sub("_", PurePath(name.replace("\\", "/")).name).strip()[:200]


def _text_of(part: Message) -> str:
    """A text part decoded with its declared charset, else detected as for a text file."""
    from desktop_rag.engine.ingest.loaders.text import decode_bytes

    try:
        content = part.get_content()
        if isinstance(content, str):
            return content
    except (LookupError, UnicodeError, ValueError, AttributeError, KeyError):
        pass
    payload = part.get_payload(decode=True) or b""
    try:
        return decode_bytes(payload)[0] if payload else ""
    except LoadError:
        return ""


def _html_of(part: Message) -> list[Block]:
    payload = part.get_payload(decode=True) or b""
    return html_blocks(decode_html(payload, declared=part.get_content_charset() or ""))[1] if payload else []


def _body_part(msg: Message) -> Message | None:
    try:
        return msg.get_body(preferencelist=("plain", "html")) if isinstance(msg, EmailMessage) else None
    except (KeyError, AttributeError, ValueError):
        return None


def _leaves(msg: Message) -> list[tuple[Message, bool]]:
    """The non-multipart parts of a message in order, each with whether it sits in a multipart/alternative;
    a forwarded message (message/rfc822) is one leaf."""
    leaves: list[tuple[Message, bool]] = []
    stack: list[tuple[Message, bool]] = [(msg, False)]
    while stack:
        part, in_alternative = stack.pop()
        if part.is_multipart() and part.get_content_type() != "message/rfc822":
            children = part.get_payload()
            alternative = in_alternative or part.get_content_subtype() == "alternative"
            stack.extend((child, alternative) for child in reversed(children) if isinstance(child, Message))
        elif part is not msg or not leaves:
            leaves.append((part, in_alternative))
    return leaves


def _is_attachment(part: Message) -> bool:
    """Whether a part is an attachment: so disposed, or named (a malformed header reads as not)."""
    try:
        return (part.get_content_disposition() == "attachment" or bool(part.get_param("name"))
                or part.get_filename() is not None)
    except Exception:  # the policy's header parsers raise many types on a malformed header
        return False


def _attachment_name(part: Message, index: int) -> str:
    try:
        name = part.get_filename() or ""
    except Exception:
        name = ""
    if not name and part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        subject = _header(inner[0], "subject") if inner and isinstance(inner[0], Message) else ""
        name = f"{subject or 'message'}.eml"
    return _safe_name(name) or f"attachment {index}"


def _read_file_attachment(data: bytes, suffix: str) -> list[Section]:
    """An attachment of a type the app reads, through its loader, from a private temporary folder."""
    with tempfile.TemporaryDirectory(prefix="desktop-rag-mail-") as folder:
        path = Path(folder) / f"attachment{suffix}"
        path.write_bytes(data)
        return list(load(path, max_bytes=MAX_ATTACHMENT_BYTES, context=LoadContext(ocr=False)).sections)


def _attachment_sections(part: Message, name: str, base: tuple[str, ...], page: int | None, depth: int,
                         budget: _Budget) -> list[Section]:
    """Sections of one attachment under (subject, "attachment: NAME"); [] when it is skipped."""
    heading = (*base, f"attachment: {name}")
    ctype = part.get_content_type()
    suffix = PurePath(name).suffix.lower()
    if ctype == "message/rfc822":
        inner = part.get_payload()
        if depth >= MAX_NESTING or not inner or not isinstance(inner[0], Message):
            return []
        return _message_sections(inner[0], page, depth + 1, budget, heading)
    data = part.get_payload(decode=True) or b""
    if not data or len(data) > MAX_ATTACHMENT_BYTES or len(data) > budget.bytes_left or suffix in _NOT_READ:
        return []
    budget.bytes_left -= len(data)
    if suffix == ".eml":  # a forwarded message sent as a file: nested like message/rfc822, in the same bounds
        return _message_sections(_parse(data), page, depth + 1, budget, heading) if depth < MAX_NESTING else []
    if ctype == "text/html" or suffix in _HTML_SUFFIXES:
        return blocks_to_sections(_html_of(part), heading, page, budget.table_chars)
    if ctype == "text/plain" or suffix in _TEXT_SUFFIXES:
        text = normalize_text(_text_of(part))
        return [Section(text=text, page=page, heading_path=heading)] if text else []
    if suffix not in SUPPORTED_SUFFIXES:
        return []
    sections = _read_file_attachment(data, suffix)
    paged = len({s.page for s in sections}) > 1  # a PDF's pages, a presentation's slides: kept in the heading
    return [Section(text=s.text, page=page, ocr=s.ocr,
                    heading_path=heading + ((f"{_UNIT.get(suffix, 'part')} {s.page}",) if paged and s.page else ())
                    + s.heading_path)
            for s in sections]


def _message_sections(msg: Message, page: int | None, depth: int, budget: _Budget,
                      base: tuple[str, ...] = ()) -> list[Section]:
    """A message's header and body, then its attachments, headed by `base` + its subject."""
    subject = _header(msg, "subject")
    path = base or ((subject,) if subject else ())
    body = _body_part(msg)
    texts: list[str] = []
    html: list[Block] = []
    attachments: list[tuple[Message, str]] = []
    for index, (part, in_alternative) in enumerate(_leaves(msg), 1):
        if part is body:
            if part.get_content_subtype() == "html":
                html.extend(_html_of(part))
            else:
                texts.append(_text_of(part))
            continue
        named = _is_attachment(part)
        if not named and part.get_content_maintype() == "text" and not in_alternative:
            texts.append(_text_of(part))  # more body text after an inline picture (Apple Mail)
        elif named or part.get_content_type() == "message/rfc822":
            attachments.append((part, _attachment_name(part, index)))
    header = [f"{label}: {value}" for label, key in (("Subject", "subject"), ("From", "from"), ("To", "to"),
                                                      ("Date", "date")) if (value := _header(msg, key))]
    if attachments:
        header.append("Attachments: " + ", ".join(name for _, name in attachments))
    first = normalize_text("\n".join(header) + "\n\n" + "\n\n".join(t for t in texts if t.strip()))
    sections = [Section(text=first, page=page, heading_path=path)] if first else []
    if html:
        sections.extend(blocks_to_sections(html, path, page, budget.table_chars))
    for part, name in attachments[:MAX_ATTACHMENTS]:
        try:
            sections.extend(_attachment_sections(part, name, path, page, depth, budget))
        except LoadError:
            continue  # an unreadable attachment does not cost the message
    return sections


def _parse(raw: bytes) -> Message:
    if len(_PART_HEADER.findall(raw)) > MAX_PARTS + 1 or len(_MULTIPART.findall(raw)) > MAX_MULTIPARTS:
        raise LoadError.coded("email_too_many_parts", n=MAX_PARTS)
    return BytesParser(policy=policy.default).parsebytes(raw)


def load_eml(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load one message (.eml)."""
    raw = path.read_bytes()
    if not raw.strip():
        raise LoadError.coded("email_empty")
    sections = _message_sections(_parse(raw), None, 0, _Budget(table_chars=table_chars(context)))
    if not any(s.text for s in sections):
        raise LoadError.coded("email_no_text")
    return ParsedDocument(sections=tuple(sections))


def mbox_messages(data: bytes) -> list[bytes]:
    """The raw messages of an mbox, "From " separator lines removed and ">From " lines unescaped."""
    starts = [(m.start(), m.end()) for m in _MBOX_FROM.finditer(data)]
    if not starts or starts[0][0] != 0:
        raise LoadError.coded("not_mbox")
    ends = [s for s, _ in starts[1:]] + [len(data)]
    return [_ESCAPED_FROM.sub(rb"\1", data[body:end]) for (_, body), end in zip(starts, ends)]


def load_mbox(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a mailbox (.mbox): page = message number; a crafted message is skipped, the others are read."""
    messages = mbox_messages(path.read_bytes())
    if len(messages) > MAX_MESSAGES:
        raise LoadError.coded("mbox_too_many", n=len(messages), limit=MAX_MESSAGES)
    budget, sections = _Budget(table_chars=table_chars(context)), []
    first_error: LoadError | None = None
    for number, raw in enumerate(messages, 1):
        try:
            sections.extend(_message_sections(_parse(raw), number, 0, budget))
        except LoadError as exc:
            first_error = first_error or exc
    if not sections:
        raise first_error or LoadError.coded("mbox_no_text")
    return ParsedDocument(sections=tuple(sections))


def load_email(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """One loader for the registry's e-mail entry: an .mbox as a mailbox, anything else as one message."""
    return (load_mbox if path.suffix.lower() == ".mbox" else load_eml)(path, context)
