"""Text helpers for views: safe Markdown with citation links, query-term highlighting, file URLs."""

from __future__ import annotations

import html
import re
import sys

from PySide6.QtCore import QUrl

CITE_SCHEME = "cite"
NO_IMAGE = "!\u200b["  # what `![` becomes in answers: no image syntax survives
_FENCE = re.compile(r"(```.*?(?:```|$)|`[^`\n]*`)", re.DOTALL)
_CITATION = re.compile(r"\[(\d{1,3})\](?!\()")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-']+")
_STOP = frozenset("""a an and are as at be by for from has have how in is it its of on or that the this to was
were what when where which who why will with do does did can could should would about into than then there""".split())


def _escape_plain(text: str) -> str:
    """Neutralise raw HTML outside code: '<' becomes an escaped character, so no tag survives."""
    return text.replace("\\<", "<").replace("<", "\\<").replace("&", "&amp;")


def _no_images(text: str) -> str:
    """Break every `![` (inline, reference or nested image) so Markdown never makes an image.

    Applied to the whole answer, code included: a zero-width space between `!` and `[` cannot be undone
    by backslash escapes or by disagreeing with the parser about where a code span ends.
    """
    return text.replace("![", NO_IMAGE)


def _link_citations(text: str) -> str:
    return _CITATION.sub(lambda m: f"[\\[{m.group(1)}\\]]({CITE_SCHEME}:{m.group(1)})", text)


def answer_markdown(text: str) -> str:
    """Markdown ready for QTextDocument.setMarkdown: no images, raw HTML escaped, [n] turned into cite:n links."""
    out = []
    for i, part in enumerate(_FENCE.split(_no_images(text))):
        out.append(part if i % 2 else _link_citations(_escape_plain(part)))
    return "".join(out)


def literal_html(text: str) -> str:
    """Rich text that shows `text` literally, for places that guess the format (tooltips, QMessageBox statics)."""
    if not text:
        return ""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"


def query_terms(query: str) -> list[str]:
    """Terms to highlight: words (no stop words) and CJK character pairs from the query."""
    terms: set[str] = set()
    for word in _WORD.findall(query):
        if word.lower() not in _STOP:
            terms.add(word.lower())
    for run in _CJK.findall(query):
        if len(run) == 1:
            terms.add(run)
        terms.update(run[i : i + 2] for i in range(len(run) - 1))
    return sorted(terms, key=len, reverse=True)


def _reflow(text: str) -> str:
    """Join hard-wrapped lines; keep paragraph breaks."""
    return re.sub(r"(?<!\n)\n(?!\n)", " ", text.strip())


def highlight_html(text: str, query: str) -> str:
    """The passage as HTML (escaped) with query terms marked."""
    text = _reflow(text)
    terms = query_terms(query)
    if not terms:
        return html.escape(text).replace("\n", "<br>")
    alternatives = [re.escape(t) if _CJK.match(t) else rf"\b{re.escape(t)}\b" for t in terms]
    pattern = re.compile("|".join(alternatives), re.IGNORECASE)
    pieces, pos = [], 0
    for m in pattern.finditer(text):
        pieces.append(html.escape(text[pos : m.start()]))
        pieces.append(f'<span style="background-color:#ffe082;">{html.escape(m.group(0))}</span>')
        pos = m.end()
    pieces.append(html.escape(text[pos:]))
    return "".join(pieces).replace("\n\n", "<br><br>").replace("\n", "<br>")


def file_url(path: str, page: int | None = None) -> QUrl:
    """A URL that opens the file in the system viewer; PDFs get #page=N where the opener keeps fragments.

    On Windows Qt opens local files through ShellExecute with the fragment dropped, which is harmless;
    on Linux/macOS a fragment can make the opener look for a file that does not exist, so it is left out.
    """
    url = QUrl.fromLocalFile(path)
    if page and path.lower().endswith(".pdf") and sys.platform == "win32":
        url.setFragment(f"page={page}")
    return url
