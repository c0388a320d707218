"""Saved web pages (.html, .htm): the main content without navigation boilerplate, with the title and headings.

Parser: selectolax's Lexbor engine (MIT, an HTML5 parser in C, no dependencies). Measured on one machine
(2 cores, 20 generated pages each, nav + sidebar + footer around the article; files/s, peak RSS):
  selectolax   71 KB English 2,250/s, 67 KB Chinese 1,625/s, 1.7 MB Chinese 89/s, 18-70 MB
  lxml.html    71 KB English 1,190/s, 67 KB Chinese 1,040/s, 1.7 MB Chinese 41/s, 20-70 MB
  trafilatura  71 KB English    73/s, 67 KB Chinese   109/s, 1.7 MB Chinese 4.2/s, 41-106 MB
All three kept the body and headings and dropped the navigation, in both languages. trafilatura
(Apache-2.0 since 1.8) is 20-30x slower and brings 80 MB of dependencies (babel, dateparser, ...); lxml's HTML
parser silently drops everything below 256 levels of nesting (a 5,000-deep page read as empty text). Lexbor's
parse time grows with the square of the nesting depth (20,000 levels 0.9 s, 100,000 levels 37 s), so the markup's
depth is measured first and a page nested deeper than MAX_DEPTH is refused.

Boilerplate: nav/aside/footer/forms' controls, site headers without a heading, ARIA landmark roles
(navigation, banner, contentinfo, complementary, search), class/id words (menu, sidebar, breadcrumb, cookie,
share, ...), and link lists (link text >= 70 % of a block's text) are skipped unless that would leave less
than a fifth of the page's text (a bookmarks page is all links). `<main>` / `role=main` / the largest `<article>`
is the content when it holds most of the text. A data table becomes Markdown row groups with its header repeated
(loaders/blocks.py, ingest/tables.py); a layout table (a table inside, or a cell over 300 characters) is read as
ordinary blocks. Inert: the parser never runs scripts or fetches anything, and
script, style, template and embedded-object content is never read.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.blocks import TABLE, Block, blocks_to_sections, table_chars
from desktop_rag.engine.ingest.documents import ParsedDocument

MAX_DEPTH = 3_000  # nesting levels; Lexbor parses 5,000 in 0.04 s, 20,000 in 0.9 s
MAX_TABLE_CELL = 300  # a table with a longer cell (or a table inside) is page layout, read as blocks
_SNIFF = 4096  # bytes searched for <meta charset>

_SKIP_TAGS = frozenset({
    "head", "script", "style", "noscript", "template", "iframe", "frame", "frameset", "object", "embed", "applet",
    "svg", "math", "canvas", "button", "select", "input", "textarea", "nav", "aside", "footer", "dialog", "map",
    "audio", "video", "-comment",
})
_BOILER_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar"})
_BOILER_WORDS = frozenset({
    "nav", "navbar", "navigation", "menu", "menubar", "sidebar", "footer", "breadcrumb", "breadcrumbs", "cookie",
    "cookies", "share", "sharing", "social", "advert", "advertisement", "ads", "ad", "sponsor", "sponsored",
    "promo", "related", "subscribe", "newsletter", "pagination", "pager", "skip", "toolbar", "masthead",
})
_BLOCK_TAGS = frozenset({
    "address", "article", "blockquote", "body", "caption", "dd", "details", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "form", "header", "hr", "li", "main", "ol", "p", "pre", "section", "summary", "table",
    "tbody", "thead", "tfoot", "tr", "td", "th", "ul", "center",
})
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_LINK_BLOCKS = frozenset({"div", "ul", "ol", "section", "table", "td", "dl", "p", "span"})
VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    "keygen", "command", "basefont", "bgsound", "frame", "image", "isindex", "nextid",
})
# closed implicitly by a sibling or a parent's end: never deep in the parsed tree
_AUTO_CLOSED = frozenset({
    "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot", "rt", "rp",
    "colgroup", "caption", "html", "head", "body",
})
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:-]{0,30})")
_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]{1,40})""", re.IGNORECASE)
_SPACE = re.compile(r"[ \t\r\n\f\v]+")
_WORD_SPLIT = re.compile(r"[\s_-]+")



def nesting_depth(markup: str, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of elements a parser keeps open, counted on the tags; stops counting past `limit`."""
    depth = deepest = 0
    in_link = False  # an <a> start tag closes an open <a> first (HTML's adoption agency): links never nest
    for match in _TAG.finditer(markup):
        name = match.group(2).lower()
        if name in VOID or name in _AUTO_CLOSED:
            continue
        if name == "a":
            if match.group(1) == "/" and not in_link or not match.group(1) and in_link:
                continue
            in_link = not match.group(1)
        if match.group(1):
            depth = max(0, depth - 1)
        else:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
    return deepest


def _charset_codec(name: str) -> str | None:
    """A Python codec for a declared charset, GB2312/GBK widened to GB18030; None when unknown."""
    name = name.strip().lower()
    if name in ("gb2312", "gbk", "x-gbk", "gb_2312-80", "cp936"):
        return "gb18030"
    if name in ("utf-16", "utf-32"):  # a meta tag inside readable bytes cannot be UTF-16; the BOM decides
        return None
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def decode_html(data: bytes, declared: str = "") -> str:
    """Markup as text: a BOM, else the charset declared (by the caller or a <meta>), else detected as for text."""
    from desktop_rag.engine.ingest.loaders.text import decode_bytes

    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return decode_bytes(data)[0]
    match = _META_CHARSET.search(data[:_SNIFF])
    for name in (declared, match.group(1).decode("ascii") if match else ""):
        codec = _charset_codec(name) if name else None
        if codec:
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                break  # the declaration is wrong: detect
    return decode_bytes(data)[0]


@dataclass
class _Stats:
    chars: int = 0
    link_chars: int = 0
    links: int = 0
    headings: int = 0


def _children(node):
    child = node.child
    while child is not None:
        yield child
        child = child.next


def _subtree_stats(root) -> dict[int, _Stats]:
    """Text, link text, link and heading counts of every element under `root`, in one post-order pass."""
    stats: dict[int, _Stats] = {}
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        tag = node.tag
        if tag == "-text":
            continue
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in _children(node) if c.tag not in _SKIP_TAGS)
            continue
        s = _Stats()
        for child in _children(node):
            if child.tag == "-text":
                s.chars += len((child.text_content or "").strip())
            elif (cs := stats.get(child.mem_id)) is not None:
                s.chars += cs.chars
                s.link_chars += cs.link_chars
                s.links += cs.links
                s.headings += cs.headings
        if tag == "a" and node.attributes.get("href") is not None:  # an anchor (<a id=..>) is no link
            s.link_chars, s.links = s.chars, s.links + 1
        elif tag in _HEADINGS:
            s.headings += 1
        stats[node.mem_id] = s
    return stats


def _is_boilerplate(node, s: _Stats, page_chars: int, prune_links: bool) -> bool:
    """Whether an element is navigation, a site banner, an advert or a link list rather than content."""
    tag = node.tag
    if tag in _SKIP_TAGS:
        return True
    attrs = node.attributes
    if attrs.get("hidden") is not None or (attrs.get("aria-hidden") or "").lower() == "true":
        return True
    if tag == "header" and not s.headings:
        return True
    small = s.chars < 0.4 * page_chars
    if (attrs.get("role") or "").lower() in _BOILER_ROLES and small:
        return True
    words = _WORD_SPLIT.split(f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower())
    if small and not s.headings and _BOILER_WORDS.intersection(words):
        return True
    return prune_links and tag in _LINK_BLOCKS and s.links >= 3 and s.link_chars >= 0.7 * s.chars and small


def _inline_text(node) -> str:
    return _SPACE.sub(" ", node.text(deep=True, separator=" ") or "").strip()


def _table_rows(table) -> list[list[str]] | None:
    """The rows of a data table, or None for a layout table (a table inside, or a long cell)."""
    if len(table.css("table")) > 1:  # css() matches the node itself too
        return None
    rows = []
    for row in table.css("tr"):
        cells = [_inline_text(c) for c in _children(row) if c.tag in ("td", "th")]
        if any(len(c) > MAX_TABLE_CELL for c in cells):
            return None
        if any(cells):
            rows.append(cells)
    return rows


@dataclass
class _Walk:
    """Blocks (loaders/blocks.py) collected in document order."""

    stats: dict[int, _Stats]
    page_chars: int
    prune_links: bool
    blocks: list[Block] = field(default_factory=list)
    buffer: list[str] = field(default_factory=list)

    def flush(self) -> None:
        text = "".join(self.buffer).strip()
        self.buffer.clear()
        if text:
            self.blocks.append((None, text))

    def run(self, root) -> None:
        stack: list[tuple[object, bool, bool]] = [(root, False, False)]  # node, leaving, inside <pre>
        while stack:
            node, leaving, pre = stack.pop()
            tag = node.tag
            if leaving:
                self.flush()
                continue
            if tag == "-text":
                text = node.text_content or ""
                self.buffer.append(text if pre else _SPACE.sub(" ", text))
                continue
            if tag == "br":
                self.buffer.append("\n")
                continue
            s = self.stats.get(node.mem_id, _Stats())
            if node is not root and _is_boilerplate(node, s, self.page_chars, self.prune_links):
                continue
            if tag in _HEADINGS:
                self.flush()
                if title := _inline_text(node):
                    self.blocks.append((_HEADINGS[tag], title))
                continue
            if tag == "table" and (rows := _table_rows(node)) is not None:
                self.flush()
                if rows:
                    self.blocks.append((TABLE, rows))
                continue
            block = tag in _BLOCK_TAGS
            if block:
                self.flush()
                stack.append((node, True, pre))
            children = list(_children(node))
            stack.extend((c, False, pre or tag == "pre") for c in reversed(children))


def _content_root(tree, stats: dict[int, _Stats]):
    """<main>, role=main or the largest <article> when it holds at least half the text; else <body>."""
    body = tree.body or tree.root
    body_chars = stats.get(body.mem_id, _Stats()).chars
    candidates = tree.css("main, [role=main], article")
    best = max(candidates, key=lambda n: stats.get(n.mem_id, _Stats()).chars, default=None)
    if best is not None and stats.get(best.mem_id, _Stats()).chars >= 0.5 * body_chars:
        return best
    return body


def html_blocks(markup: str) -> tuple[str, list[Block]]:
    """(page title, blocks) of a page's main content (loaders/blocks.py)."""
    from selectolax.lexbor import LexborHTMLParser

    if nesting_depth(markup) > MAX_DEPTH:
        raise LoadError.coded("html_too_deep", n=MAX_DEPTH)
    tree = LexborHTMLParser(markup)
    title_node = tree.css_first("title")
    title = _SPACE.sub(" ", title_node.text() if title_node is not None else "").strip()
    if tree.body is None:
        return title, []
    stats = _subtree_stats(tree.body)
    root = _content_root(tree, stats)
    page_chars = stats.get(root.mem_id, _Stats()).chars
    walk = _Walk(stats, page_chars, prune_links=True)
    walk.run(root)
    walk.flush()
    if sum(len(str(t)) for _, t in walk.blocks) < 0.2 * page_chars:  # mostly links: a link page, keep them
        walk = _Walk(stats, page_chars, prune_links=False)
        walk.run(root)
        walk.flush()
    return title, walk.blocks


def load_html(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a saved web page (.html, .htm): the title heads every section, tables are row groups."""
    data = path.read_bytes()
    if not data.strip():
        raise LoadError.coded("html_empty")
    title, blocks = html_blocks(decode_html(data))
    sections = blocks_to_sections(blocks, (title,) if title else (), max_table_chars=table_chars(context))
    if not sections:
        raise LoadError.coded("html_no_text")
    return ParsedDocument(sections=tuple(sections))
