"""Text helpers for views: safe Markdown with citation links, query-term highlighting, file URLs."""

from __future__ import annotations

import html
import re
import sys

from PySide6.QtCore import QUrl

from desktop_rag.engine import is_paged, is_supported, markdown_tables, query_terms, term_spans

CITE_SCHEME = "cite"
TITLE_CHARS = 40  # a conversation's title as listed (the whole title in its tooltip)
CUT = "…"
NO_IMAGE = "!\u200b["  # what `![` becomes in answers: no image syntax survives
_FENCE = re.compile(r"(```.*?(?:```|$)|`[^`\n]*`)", re.DOTALL)
_CITATION = re.compile(r"\[(\d{1,3})\](?!\()")
# C0 controls but tab, newline and carriage return; DEL and C1; bidi embeddings, overrides and isolates (U+202E
# would show the rest of an answer reversed)
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape_plain(text: str) -> str:
    """Neutralise raw HTML outside code: '<' becomes an escaped character, so no tag survives."""
    return text.replace("\\<", "<").replace("<", "\\<").replace("&", "&amp;")


def _no_images(text: str) -> str:
    """Break every `![` (inline, reference or nested image) so Markdown never makes an image.

    Applied to the whole answer, code included: a zero-width space between `!` and `[` cannot be undone
    by backslash escapes or by disagreeing with the parser about where a code span ends.
    """
    return text.replace("![", NO_IMAGE)


def _link_citations(text: str, passages: int) -> str:
    """Each `[n]` of a passage 1..`passages` as a cite:n link; another number stays text."""
    return _CITATION.sub(lambda m: f"[\\[{m.group(1)}\\]]({CITE_SCHEME}:{m.group(1)})"
                         if 1 <= int(m.group(1)) <= passages else m.group(0), text)


def _visible_controls(text: str) -> str:
    """`text` with each control or bidi formatting character as U+FFFD: seen, never acted on."""
    return _CONTROLS.sub("\ufffd", text)


def answer_markdown(text: str, passages: int) -> str:
    """Markdown ready for QTextDocument.setMarkdown: no images, raw HTML escaped, control and bidi characters
    visible, [n] turned into a cite:n link when the answer was given passage n (of `passages`; a streaming
    answer's out-of-range `[7]` is text, as it is after the engine drops it from the finished answer)."""
    out = []
    for i, part in enumerate(_FENCE.split(_no_images(_visible_controls(text)))):
        out.append(part if i % 2 else _link_citations(_escape_plain(part), passages))
    return "".join(out)


def short_title(title: str, limit: int = TITLE_CHARS) -> str:
    """`title` in at most `limit` characters: cut after its last whole word that fits, with "…" (by characters when
    no space falls in the second half: Chinese, a long word)."""
    if len(title) <= limit:
        return title
    space = title.rfind(" ", 0, limit)  # "…" takes the space's place
    head = title[:space] if space >= limit // 2 else title[:limit - 1]
    return head.rstrip() + CUT


def literal_html(text: str) -> str:
    """Rich text that shows `text` literally, for places that guess the format (tooltips, QMessageBox statics)."""
    if not text:
        return ""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"


def _reflow(text: str) -> str:
    """Join hard-wrapped lines; keep paragraph breaks."""
    return re.sub(r"(?<!\n)\n(?!\n)", " ", text.strip())


def highlight_html(text: str, query: str) -> str:
    """The passage as HTML (escaped) with every word keyword search matched for the query marked; its Markdown
    tables as HTML tables of plain-text cells under their header row."""
    terms = query_terms(query)
    pieces, at = [], 0
    for table in markdown_tables(text) if "|" in text else ():
        pieces.append(_prose_html(text[at:table.start], terms))
        pieces.append(_table_html(table, terms))
        at = table.end
    pieces.append(_prose_html(text[at:], terms))
    return "".join(pieces)


def _prose_html(text: str, terms) -> str:
    return _marked(_reflow(text), terms).replace("\n\n", "<br><br>").replace("\n", "<br>")


def _marked(text: str, terms) -> str:
    pieces, pos = [], 0
    for start, end in _merged(term_spans(terms, text)):
        pieces.append(html.escape(text[pos:start]))
        pieces.append(f'<span style="background-color:#ffe082;">{html.escape(text[start:end])}</span>')
        pos = end
    pieces.append(html.escape(text[pos:]))
    return "".join(pieces)


def _table_html(table, terms) -> str:
    """A Markdown table (engine `markdown_tables`) as an HTML grid; every cell is escaped text."""
    rows = []
    if table.header is not None:
        rows.append("<tr>" + "".join(f"<th bgcolor='#eef1f5'>{_marked(c.text, terms)}</th>" for c in table.header)
                    + "</tr>")
    rows += ["<tr>" + "".join(f"<td>{_marked(c.text, terms)}</td>" for c in cells) + "</tr>" for cells, _ in table.rows]
    return "<table border='1' cellspacing='0' cellpadding='3'>" + "".join(rows) + "</table>"


def _merged(spans: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """Matched spans (start, end, term) as ordered, non-overlapping (start, end) runs."""
    out: list[tuple[int, int]] = []
    for start, end, _ in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def openable_file(path: str) -> bool:
    """Whether a document path may be handed to the system's default app: a supported document type, on this
    computer (a network path such as `\\\\server\\share` or `//server/share` is never opened)."""
    return is_supported(path) and not path.startswith(("\\\\", "//"))


def file_url(path: str, page: int | None = None) -> QUrl:
    """A URL that opens the file in the system viewer; a paged format (a PDF) gets #page=N where the opener keeps
    fragments.

    On Windows Qt opens local files through ShellExecute with the fragment dropped, which is harmless;
    on Linux/macOS a fragment can make the opener look for a file that does not exist, so it is left out.
    """
    url = QUrl.fromLocalFile(path)
    if page and is_paged(path) and sys.platform == "win32":
        url.setFragment(f"page={page}")
    return url
