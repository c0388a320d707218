"""MIME helpers for the e-mail reader: decoded headers, the body part, leaves in order, attachments and their bytes."""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from pathlib import PurePath

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.file_types import suffix_for_type
from desktop_rag.engine.ingest.loaders.blocks import Block
from desktop_rag.engine.ingest.loaders.html import decode_html, html_blocks

# control characters, slashes, and the invisible ones that reorder or hide text (bidi controls: "cod\u202egpj.exe"
# shows as "codexe.jpg"; zero-width and other format characters)
_NAME_BAD = re.compile(r"[\x00-\x1f\x7f-\x9f/\\]")
_NAME_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
MAX_NAME = 200  # characters of an attachment's name (it becomes part of a library path)
MAX_SUFFIX = 16
_CONTENT_TYPE = re.compile(rb"^content-type:[^\n]*(?:\r?\n[ \t][^\n]*)*", re.IGNORECASE | re.MULTILINE)
_BOUNDARY = re.compile(rb"""boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))""", re.IGNORECASE)


def header(msg: Message, name: str) -> str:
    """A header's decoded value ('' when absent or unreadable), on one line."""
    try:
        value = msg.get(name)
    except Exception:  # a malformed header the policy cannot parse
        value = None
    return " ".join(str(value).split()) if value is not None else ""


def safe_name(name: str) -> str:
    """A file name with no folder part, control, bidi or invisible character, or slash (it becomes part of a library
    path, shown in the window), at most MAX_NAME characters with its suffix kept (the suffix says how it is read)."""
    name = _NAME_BAD.sub("_", _NAME_INVISIBLE.sub("", PurePath(name.replace("\\", "/")).name)).strip().strip(".")
    if len(name) <= MAX_NAME:
        return name
    suffix = PurePath(name).suffix
    suffix = suffix if 1 < len(suffix) <= MAX_SUFFIX else ""
    return name[:MAX_NAME - len(suffix)].rstrip(" .") + suffix


def part_count(raw: bytes, limit: int) -> int:
    """The MIME parts of a raw message, counted before it is parsed: the delimiter lines of every boundary its
    Content-Type headers declare (a part needs no Content-Type header of its own), or its Content-Type headers
    (less the message's own), whichever is more; the boundaries are looked at up to `limit` of them."""
    boundaries = sorted({m.group(1) or m.group(2) for header in _CONTENT_TYPE.finditer(raw)
                         for m in _BOUNDARY.finditer(header.group(0))})
    delimiters = 0
    for boundary in boundaries[:limit]:
        line = re.compile(rb"^--" + re.escape(boundary) + rb"(--)?[ \t]*\r?$", re.MULTILINE)
        delimiters += sum(1 for m in line.finditer(raw) if m.group(1) is None)
    return max(len(_CONTENT_TYPE.findall(raw)) - 1, delimiters)


def text_of(part: Message) -> str:
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


def html_of(part: Message) -> list[Block]:
    payload = part.get_payload(decode=True) or b""
    return html_blocks(decode_html(payload, declared=part.get_content_charset() or ""))[1] if payload else []


def body_part(msg: Message) -> Message | None:
    try:
        return msg.get_body(preferencelist=("plain", "html")) if isinstance(msg, EmailMessage) else None
    except (KeyError, AttributeError, ValueError):
        return None


def leaves(msg: Message) -> list[tuple[Message, bool]]:
    """The non-multipart parts of a message in order, each with whether it sits in a multipart/alternative;
    a forwarded message (message/rfc822) is one leaf."""
    found: list[tuple[Message, bool]] = []
    stack: list[tuple[Message, bool]] = [(msg, False)]
    while stack:
        part, in_alternative = stack.pop()
        if part.is_multipart() and part.get_content_type() != "message/rfc822":
            children = part.get_payload()
            alternative = in_alternative or part.get_content_subtype() == "alternative"
            stack.extend((child, alternative) for child in reversed(children) if isinstance(child, Message))
        elif part is not msg or not found:
            found.append((part, in_alternative))
    return found


def is_attachment(part: Message) -> bool:
    """Whether a part is an attachment: so disposed, or named (a malformed header reads as not)."""
    try:
        return (part.get_content_disposition() == "attachment" or bool(part.get_param("name"))
                or part.get_filename() is not None)
    except Exception:  # the policy's header parsers raise many types on a malformed header
        return False


def attachment_name(part: Message, index: int, readable: frozenset[str]) -> str:
    """The attachment's file name, cleaned; a forwarded message is named by its subject; a name without a
    suffix in `readable` gets the one of its content type (text/plain: .txt)."""
    try:
        name = part.get_filename() or ""
    except Exception:
        name = ""
    ctype = part.get_content_type()
    if not name and ctype == "message/rfc822":
        inner = part.get_payload()
        subject = header(inner[0], "subject") if inner and isinstance(inner[0], Message) else ""
        name = f"{subject or 'message'}.eml"
    name = safe_name(name) or f"attachment {index}"
    suffix = suffix_for_type(ctype)  # named without a suffix the app reads: one from its content type (the registry)
    if suffix and PurePath(name).suffix.lower() not in readable:
        name += suffix
    return name


def attachment_data(part: Message) -> bytes:
    """An attachment's bytes: a forwarded message (message/rfc822) as the message it holds, else the payload."""
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        if not inner or not isinstance(inner[0], Message):
            return b""
        try:
            return inner[0].as_bytes()
        except Exception:  # a header the policy cannot write back: not read
            return b""
    return part.get_payload(decode=True) or b""
