"""E-books (.epub): a zip of XHTML chapters, read in reading order through the HTML reader.

META-INF/container.xml names the package (OPF) file; its spine lists the chapters in reading order, its
manifest where each lives. Each chapter goes through the web-page reader (loaders/html.py): `Section.page` is
the chapter's number among the chapters that hold text, `heading_path` starts with the chapter's heading (its
entry in the table of contents, else its first heading). A chapter that cannot be read (damaged, over its bound,
nested too deep) is left out and named in the file's note (`left_out`); an XML internal subset in a chapter's
DOCTYPE is dropped before the HTML parser sees it. The zip is checked by loaders/zip_guard.py before
anything is inflated; the package XML is parsed by defusedxml (no entities, no network); chapters are parsed as
HTML, which expands no declared entities and fetches nothing. ebooklib is not used (AGPL).
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.blocks import blocks_to_sections, first_heading, has_body, table_chars
from desktop_rag.engine.ingest.loaders.html import VOID, decode_html, html_blocks
from desktop_rag.engine.ingest.loaders.left_out import LeftOut
from desktop_rag.engine.ingest.loaders.safe_xml import local, parse_xml
from desktop_rag.engine.ingest.loaders.zip_guard import open_zip, read_member
from desktop_rag.engine.ingest.documents import ParsedDocument, Section

MAX_PACKAGE_BYTES = 8 << 20  # container.xml, the OPF and the NCX table of contents
MAX_CHAPTER_BYTES = 32 << 20
MAX_CHAPTERS = 5_000
MAX_TEXT_BYTES = 256 << 20  # all chapters' markup together
_XHTML = frozenset({"application/xhtml+xml", "text/html", "application/xml", "text/x-oeb1-document"})
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]{0,200}?encoding\s*=\s*["']([A-Za-z0-9_.:-]{1,40})""")
_SPACE = re.compile(r"\s+")
_SELF_CLOSED = re.compile(r"<([a-zA-Z][\w:-]{0,30})(\s[^<>]{0,2000}?)?/>")
_DOCTYPE = re.compile(r"<!DOCTYPE\b", re.IGNORECASE)
MAX_SUBSET = 1 << 20  # characters of a DOCTYPE's internal subset scanned for its end


def _member_path(base: str, href: str) -> str:
    """A zip member name from an href relative to `base` (the OPF's folder), fragment and %-escapes removed."""
    return posixpath.normpath(posixpath.join(base, unquote(href.split("#", 1)[0]))).lstrip("/")


def _package_path(zf: zipfile.ZipFile) -> str:
    """The OPF file named by META-INF/container.xml."""
    names = set(zf.namelist())
    if "META-INF/container.xml" not in names:
        opf = [n for n in names if n.lower().endswith(".opf")]
        if len(opf) == 1:  # some tools forget the container; one package file is unambiguous
            return opf[0]
        raise LoadError.coded("epub_no_container")
    root = parse_xml(read_member(zf, "META-INF/container.xml", MAX_PACKAGE_BYTES), Phrase("phrase.epub_container"))
    for element in root.iter():
        if local(element.tag) == "rootfile" and element.get("full-path"):
            return _member_path("", element.get("full-path", ""))
    raise LoadError.coded("epub_no_package")


def _toc_labels(zf: zipfile.ZipFile, base: str, manifest: dict[str, tuple[str, str, str]], ncx_id: str) -> dict:
    """Chapter member -> its first label in the table of contents (EPUB 3 nav document, else EPUB 2 NCX)."""
    labels: dict[str, str] = {}
    nav = next((href for href, _, props in manifest.values() if "nav" in props.split()), None)
    if nav is not None:
        from selectolax.lexbor import LexborHTMLParser

        data = read_member(zf, nav, MAX_PACKAGE_BYTES)
        nav_base = posixpath.dirname(nav)
        for link in LexborHTMLParser(decode_html(data)).css("nav a[href]"):
            label = _SPACE.sub(" ", link.text()).strip()
            labels.setdefault(_member_path(nav_base, link.attributes.get("href") or ""), label)
    elif ncx_id in manifest:
        ncx = manifest[ncx_id][0]
        root = parse_xml(read_member(zf, ncx, MAX_PACKAGE_BYTES), Phrase("phrase.epub_ncx"))
        for point in root.iter():
            if local(point.tag) != "navPoint":
                continue
            text = next((e.text for e in point.iter() if local(e.tag) == "text" and e.text), "")
            src = next((e.get("src", "") for e in point if local(e.tag) == "content"), "")
            if text and src:
                labels.setdefault(_member_path(posixpath.dirname(ncx), src), _SPACE.sub(" ", text).strip())
    return {k: v for k, v in labels.items() if v}


def _spine(zf: zipfile.ZipFile) -> tuple[list[str], dict[str, str]]:
    """(chapter members in reading order, chapter member -> table-of-contents label)."""
    opf = _package_path(zf)
    base = posixpath.dirname(opf)
    root = parse_xml(read_member(zf, opf, MAX_PACKAGE_BYTES), Phrase("phrase.epub_package"))
    manifest: dict[str, tuple[str, str, str]] = {}  # id -> (member, media type, properties)
    order: list[str] = []
    ncx_id = ""
    for element in root.iter():
        name = local(element.tag)
        if name == "item" and element.get("id") and element.get("href"):
            manifest[element.get("id", "")] = (_member_path(base, element.get("href", "")),
                                               element.get("media-type", ""), element.get("properties", ""))
        elif name == "spine":
            ncx_id = element.get("toc", "")
        elif name == "itemref" and element.get("idref"):
            order.append(element.get("idref", ""))
    if len(order) > MAX_CHAPTERS:
        raise LoadError.coded("epub_too_many_chapters", n=len(order), limit=MAX_CHAPTERS)
    chapters = []
    for idref in order:
        member, media, props = manifest.get(idref, ("", "", ""))
        if member and media in _XHTML and "nav" not in props.split() and member not in chapters:
            chapters.append(member)
    if not chapters:
        raise LoadError.coded("epub_no_spine")
    return chapters, _toc_labels(zf, base, manifest, ncx_id)


def _open_close(match: re.Match) -> str:
    tag = match.group(1)
    return match.group(0) if tag.lower() in VOID else f"<{tag}{match.group(2) or ''}></{tag}>"


def _without_internal_subset(markup: str) -> str:
    """The markup with its document type declaration as plain `<!DOCTYPE html>`: an XML internal subset
    (`<!DOCTYPE html [<!ENTITY ...>]>`) is no HTML, and an HTML parser would end the declaration at its first ">"
    and show the rest ("]>") as text. Quoted values may hold "]" and ">"; a subset longer than MAX_SUBSET is left."""
    match = _DOCTYPE.search(markup, 0, 4096)
    if match is None:
        return markup
    quote, depth = "", 0
    for i in range(match.end(), min(len(markup), match.end() + MAX_SUBSET)):
        ch = markup[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif ch == ">" and depth == 0:
            return markup[:match.start()] + "<!DOCTYPE html>" + markup[i + 1:]
    return markup


def _chapter_markup(data: bytes) -> str:
    """A chapter as HTML: decoded by its XML declaration, an XML internal subset dropped, XHTML's self-closed
    elements (<a id="p5"/>) closed, which an HTML parser would otherwise leave open around the text that follows."""
    match = _XML_ENCODING.match(data)
    markup = _without_internal_subset(decode_html(data, declared=match.group(1).decode("ascii") if match else ""))
    return _SELF_CLOSED.sub(_open_close, markup)


def load_epub(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load an .epub: each chapter of the spine in order, page = chapter number, headed by the chapter's title."""
    sections: list[Section] = []
    total = 0
    left_out = LeftOut()
    with open_zip(path, not_zip="not_epub") as zf:
        chapters, labels = _spine(zf)
        names = set(zf.namelist())
        number = 0
        for member in chapters:
            if member not in names:
                continue  # a chapter the package lists but the zip lacks: the others are still read
            total += zf.getinfo(member).file_size
            if total > MAX_TEXT_BYTES:
                raise LoadError.coded("epub_too_much_text", mb=MAX_TEXT_BYTES >> 20)
            blocks: list = []
            with left_out.part("chapter", member):  # damaged, over its bound, nested too deep: the others are read
                title, blocks = html_blocks(_chapter_markup(read_member(zf, member, MAX_CHAPTER_BYTES)))
            if not has_body(blocks):
                continue  # a cover picture or an empty page
            number += 1
            heading = labels.get(member) or first_heading(blocks) or title
            base = (_SPACE.sub(" ", heading).strip(),) if heading else ()
            sections.extend(blocks_to_sections(blocks, base, page=number, max_table_chars=table_chars(context)))
    if not sections:
        raise left_out.failure() or LoadError.coded("epub_damaged" if left_out.parts else "epub_no_text")
    return ParsedDocument(sections=tuple(sections), notes=left_out.notes())
