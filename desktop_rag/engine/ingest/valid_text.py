"""The one boundary where a reader's text becomes valid text, before it is chunked, stored or shown.

A Python string can hold code points no UTF-8 text can: UTF-16 surrogates (U+D800-U+DFFF). Readers pass them on
from the files themselves: RTF writes characters beyond U+FFFF as two `\\uN` escapes (and a damaged file a lone
one, `\\u-10240` = U+D800), PDFium gives such characters as two UTF-16 units, e-mail headers keep undecodable
bytes as surrogate escapes. SQLite refuses them (`UnicodeEncodeError: surrogates not allowed`), so every reader's
result (`loaders.load`) passes `valid_document` on its way out: a surrogate pair becomes the character it
encodes (U+1D45D, not two code points), a lone surrogate becomes U+FFFD. Every text of the result goes through:
sections' text and heading paths, plain-text notes, attachments' names (`AttachedDocument.part`) and their own
documents; a note that is a Phrase has its values made valid where its reason is stored (`reasons.Reason`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from desktop_rag.engine.ingest.documents import AttachedDocument, ParsedDocument, Section

_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """`text` with surrogate pairs joined into their characters and lone surrogates replaced by U+FFFD."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _valid_section(section: Section) -> Section:
    text, path = valid_text(section.text), tuple(valid_text(h) for h in section.heading_path)
    return section if text is section.text and path == section.heading_path else replace(
        section, text=text, heading_path=path)


def _valid_attachment(attached: AttachedDocument) -> AttachedDocument:
    return replace(attached, part=valid_text(attached.part), document=valid_document(attached.document))


def valid_document(doc: ParsedDocument) -> ParsedDocument:
    """`doc` with every text valid (`valid_text`); the same object when nothing needed it."""
    sections = tuple(_valid_section(s) for s in doc.sections)
    notes = tuple(valid_text(n) if isinstance(n, str) else n for n in doc.notes)  # a Phrase's values: Reason bounds
    attachments = tuple(_valid_attachment(a) for a in doc.attachments)
    if (all(a is b for a, b in zip(sections, doc.sections)) and notes == doc.notes
            and attachments == doc.attachments):
        return doc
    return ParsedDocument(sections=sections, notes=notes, attachments=attachments)
