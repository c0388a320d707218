"""PowerPoint .pptx loader (python-pptx, MIT): per slide its title, text boxes, tables and speaker notes.

Each slide is one section (page = slide number, heading = its title), and each of its tables becomes Markdown row
groups with the header repeated (`ingest.tables`). A slide or a shape python-pptx cannot read is left out and named
in the file's note (`left_out`); a picture in the title's placeholder is no title. The file passes the zip guard
first; python-pptx parses its XML with lxml without resolving entities (no billion laughs) and without network
access.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.ingest.cleaning import normalize_text
from desktop_rag.engine.ingest.loaders import LoadContext
from desktop_rag.engine.ingest.loaders.left_out import LeftOut
from desktop_rag.engine.ingest.loaders.zip_guard import check_office_package
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.engine.ingest.documents import ParsedDocument, Section

MAX_UNCOMPRESSED = 512 << 20  # all parts together, unpacked (pictures and media included)
MAX_XML = 192 << 20  # the XML parts parsed into trees
MAX_GROUP_DEPTH = 32  # groups inside groups: deeper shapes are not read


def check_zip_safety(path: Path) -> None:
    """Raise LoadError unless `path` passes the zip guard and holds a presentation of sane XML size."""
    check_office_package(path, kind=".pptx", what=Phrase("phrase.powerpoint_presentation"),
                         main_part="ppt/presentation.xml", not_zip="not_pptx", max_total=MAX_UNCOMPRESSED,
                         max_xml=MAX_XML)


def _shapes(shapes, depth: int = 0) -> Iterator:
    """Every shape in reading order, groups opened (to a bounded depth)."""
    for shape in shapes:
        if getattr(shape, "shape_type", None) == 6 and depth < MAX_GROUP_DEPTH:  # MSO_SHAPE_TYPE.GROUP
            yield from _shapes(shape.shapes, depth + 1)
        else:
            yield shape


def _text(frame) -> str:
    return normalize_text("\n".join(p.text for p in frame.paragraphs)).strip()


def _table_rows(table) -> list[list[str]]:
    rows = []
    for row in table.rows:
        rows.append([" ".join(normalize_text(cell.text).split()) for cell in row.cells])
    return rows


def _title(shape) -> str:
    """A title placeholder's text; "" when it holds no text frame (a picture placed in the title's placeholder)."""
    if shape is None or not getattr(shape, "has_text_frame", False):
        return ""
    return " ".join(_text(shape.text_frame).split())


def _slide_sections(slide, number: int, table_chars: int, left_out: LeftOut) -> list[Section]:
    title_shape = slide.shapes.title
    title = _title(title_shape)
    heading = (title,) if title else ()
    parts = [title] if title else []
    tables: list[Section] = []
    for shape in _shapes(slide.shapes):
        if title_shape is not None and shape.shape_id == title_shape.shape_id:
            continue
        with left_out.part("shape", number):  # one odd shape leaves the rest of the slide
            if getattr(shape, "has_table", False):
                tables.extend(table_sections(_table_rows(shape.table), max_chars=table_chars, heading_path=heading,
                                             page=number))
            elif getattr(shape, "has_text_frame", False) and (text := _text(shape.text_frame)):
                parts.append(text)
    with left_out.part("shape", number):
        if slide.has_notes_slide and (notes_frame := slide.notes_slide.notes_text_frame) is not None:
            if notes := _text(notes_frame):
                parts.append(notes)
    body = [Section(text="\n\n".join(parts), page=number, heading_path=heading)] if parts else []
    return body + tables


def _slides(presentation) -> Iterator:
    """(number, slide) in order; a slide whose part is missing or damaged raises when it is taken, not before."""
    slides = presentation.slides
    for index in range(len(slides)):
        yield index + 1, lambda index=index: slides[index]


def load_pptx(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a .pptx after the zip guard: one section per slide (page = slide number) and its tables; a slide or a
    shape that cannot be read is left out and named in the file's note."""
    check_zip_safety(path)
    import pptx

    table_chars = (context or LoadContext()).table_chars
    left_out = LeftOut()
    sections: list[Section] = []
    try:
        presentation = pptx.Presentation(str(path))
        for number, slide in _slides(presentation):
            with left_out.part("slide", number):
                sections.extend(_slide_sections(slide(), number, table_chars, left_out))
    except (OSError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # python-pptx/lxml raise many types on broken files
        raise LoadError.coded("pptx_damaged") from exc
    if not sections:
        raise LoadError.coded("pptx_damaged" if "slide" in left_out.parts else "pptx_no_text")
    return ParsedDocument(sections=tuple(sections), notes=left_out.notes())
