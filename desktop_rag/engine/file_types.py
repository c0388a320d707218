"""The reader registry: one declaration per format the app reads, and everything derived from it.

Each `Reader` says which suffixes it takes, its kind, the type name a search is limited by (CLI `--type`, the
GUI's type filter, the MCP `file_type`), how messages name it in English and Chinese, its loader (a lazily
imported "module:function" taking `(path, LoadContext)`), whether it is read in the memory-capped parser child,
the word a front end puts before `Section.page` ("page 3", "slide 3"), how the viewer shows it (`view`: drawn as
pages, or as text; `recognised`: the text the library stored, not the file read again) and its MIME types (an e-mail attachment named without a suffix gets one from its type).
Adding a format is one loader module plus one entry in `READERS`; scanning, the parser, the file dialog, the drop
area, the "not supported" messages, the viewer and the MCP server all read this table; no other module names a
suffix (tests/architecture/test_suffix_literals.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

_LOADERS = "desktop_rag.engine.ingest.loaders"
PAGES, TEXT = "pages", "text"  # how the viewer shows a format (`Reader.view`)


@dataclass(frozen=True)
class Reader:
    """One format the app reads."""

    name: str  # the type name searches filter by ("pdf", "docx", ...), unique
    kind: str  # what it is ("pdf", "word", "text", "markdown", "image", ...)
    suffixes: tuple[str, ...]  # lower case, with the dot
    label: str  # how English messages name it ("PDF", "Word .docx", "images")
    label_zh: str  # how Chinese messages name it ("PDF", "Word .docx", "图片")
    loader: str  # "module:function", imported when the first such file is read
    in_child: bool = True  # read in the memory-capped parser child (False: plain text, read in this process)
    location: str = "page"  # the unit `Section.page` counts: a key of LOCATION_WORDS, "" when it has none
    # PAGES: a paged format, drawn page by page with the passage's rectangles highlighted (document.pdf_render), its
    # `Section.page` a printed page the system's viewer can open at; TEXT: the passage shown in its re-read text
    view: str = TEXT
    mime_types: tuple[str, ...] = ()  # lower case; the first suffix is the one a file of that type gets
    # its text is recognised from pictures (OCR): the viewer shows the text the library stored rather than read the
    # file again (text recognition once more: minutes and gigabytes a file, in the app's own process)
    recognised: bool = False


READERS: tuple[Reader, ...] = (
    Reader("pdf", "pdf", (".pdf",), "PDF", "PDF", f"{_LOADERS}.pdf:load_pdf", view=PAGES,
           mime_types=("application/pdf",)),
    Reader("docx", "word", (".docx",), "Word .docx", "Word .docx", f"{_LOADERS}.docx:load_docx", location=""),
    Reader("pptx", "slides", (".pptx",), "PowerPoint .pptx", "PowerPoint .pptx", f"{_LOADERS}.pptx:load_pptx",
           location="slide"),
    Reader("xlsx", "spreadsheet", (".xlsx", ".ods"), "spreadsheets (.xlsx, .ods)", "电子表格（.xlsx、.ods）",
           f"{_LOADERS}.sheets:load_workbook", location="sheet"),
    Reader("csv", "table", (".csv", ".tsv"), "CSV/TSV", "CSV/TSV", f"{_LOADERS}.sheets:load_csv", location="sheet",
           mime_types=("text/csv",)),
    Reader("html", "web", (".html", ".htm"), "web pages (.html)", "网页（.html）", f"{_LOADERS}.html:load_html",
           location="", mime_types=("text/html",)),
    Reader("epub", "ebook", (".epub",), "EPUB e-books", "EPUB 电子书", f"{_LOADERS}.epub:load_epub",
           location="chapter"),
    Reader("email", "email", (".eml", ".mbox"), "e-mail (.eml, .mbox)", "电子邮件（.eml、.mbox）",
           f"{_LOADERS}.email:load_email", location="message", mime_types=("message/rfc822",)),
    Reader("odt", "opendocument", (".odt",), "OpenDocument .odt", "OpenDocument .odt", f"{_LOADERS}.odt:load_odt",
           location=""),
    Reader("rtf", "rtf", (".rtf",), "RTF", "RTF", f"{_LOADERS}.rtf:load_rtf", location=""),
    Reader("doc", "word-legacy", (".doc",), "Word 97-2003 .doc", "Word 97-2003 .doc",
           f"{_LOADERS}.legacy_office:load_legacy_office", location=""),
    Reader("ppt", "slides-legacy", (".ppt",), "PowerPoint 97-2003 .ppt", "PowerPoint 97-2003 .ppt",
           f"{_LOADERS}.legacy_office:load_legacy_office", location="slide"),
    Reader("xls", "spreadsheet-legacy", (".xls",), "Excel 97-2003 .xls", "Excel 97-2003 .xls",
           f"{_LOADERS}.sheets:load_workbook", location="sheet"),
    Reader("md", "markdown", (".md", ".markdown"), ".md", ".md", f"{_LOADERS}.text:load_markdown", in_child=False,
           location=""),
    Reader("txt", "text", (".txt",), ".txt", ".txt", f"{_LOADERS}.text:load_text", in_child=False, location="",
           mime_types=("text/plain",)),
    Reader("image", "image", (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp"), "images", "图片",
           f"{_LOADERS}.image:load_image", location="", recognised=True),
)

# how a front end words `Section.page` for each location kind: English, Chinese ({n}: the 1-based unit)
LOCATION_WORDS: dict[str, tuple[str, str]] = {
    "page": ("page {n}", "第 {n} 页"),
    "slide": ("slide {n}", "第 {n} 张幻灯片"),
    "sheet": ("sheet {n}", "第 {n} 个工作表"),
    "chapter": ("chapter {n}", "第 {n} 章"),
    "message": ("message {n}", "第 {n} 封邮件"),
}

_BY_SUFFIX: dict[str, Reader] = {s: r for r in READERS for s in r.suffixes}
_BY_MIME_TYPE: dict[str, Reader] = {m: r for r in READERS for m in r.mime_types}
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(_BY_SUFFIX)
TEXT_SUFFIXES: frozenset[str] = frozenset(s for r in READERS if not r.in_child for s in r.suffixes)
CHILD_SUFFIXES: frozenset[str] = SUPPORTED_SUFFIXES - TEXT_SUFFIXES
TYPE_NAMES: tuple[str, ...] = tuple(r.name for r in READERS)


def reader_for(path: str | Path) -> Reader | None:
    """The reader of a file by its suffix (any case), None when the app does not read it."""
    return _BY_SUFFIX.get(Path(path).suffix.lower())


def is_supported(path: str | Path) -> bool:
    return reader_for(path) is not None


def view_of(path: str | Path) -> str:
    """How the viewer shows the file at `path`: PAGES (a paged format, drawn) or TEXT (also for an unknown type)."""
    reader = reader_for(path)
    return reader.view if reader is not None else TEXT


def is_paged(path: str | Path) -> bool:
    """A paged format: its passages sit on printed pages, drawn by the viewer and opened at by the system's."""
    return view_of(path) == PAGES


def is_recognised(path: str | Path) -> bool:
    """A format whose text is recognised from pictures (OCR): the viewer shows its stored text (`Reader.recognised`)."""
    reader = reader_for(path)
    return reader is not None and reader.recognised


def suffix_for_type(mime_type: str) -> str:
    """The suffix a file of this MIME type gets ("application/pdf" -> ".pdf"), "" when the app reads no such type."""
    reader = _BY_MIME_TYPE.get(mime_type.strip().lower())
    return reader.suffixes[0] if reader is not None else ""


def suffixes_of(name: str) -> tuple[str, ...]:
    """The file suffixes of a type name ("md": .md and .markdown); () for an unknown name."""
    return next((r.suffixes for r in READERS if r.name == name), ())


def type_labels(lang: str = "en") -> list[str]:
    """How messages name each format, in registry order."""
    return [r.label_zh if lang == "zh" else r.label for r in READERS]


def supported_types(lang: str = "en") -> str:
    """The supported formats for a message: "PDF, Word .docx, .md, .txt, images"."""
    return ("、" if lang == "zh" else ", ").join(type_labels(lang))


def suffix_patterns() -> str:
    """Every supported suffix as a file-name pattern for a file dialog: "*.pdf *.docx *.txt ..."."""
    return " ".join(f"*{s}" for r in READERS for s in r.suffixes)


def location_text(path: str | Path, page: int | None, lang: str = "en") -> str:
    """How a passage's unit reads: "page 3", "slide 3", "第 3 张幻灯片"; "" when it has none."""
    if page is None:
        return ""
    reader = reader_for(path)
    word = LOCATION_WORDS.get(reader.location if reader is not None and reader.location else "page")
    return word[1 if lang == "zh" else 0].format(n=page)
