"""PowerPoint .pptx loader (python-pptx, MIT): per slide its title, text boxes, tables and speaker notes.

Each slide is one section (page = slide number, heading = its title), and each of its tables becomes Markdown row
groups with the header repeated (`ingest.tables`). The file passes the zip guard first; python-pptx parses its XML
with lxml without resolving entities (no billion laughs) and without network access.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.ingest.cleaning import normalize_text
from desktop_rag.engine.ingest.loaders import LoadContext
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


def _slide_sections(slide, number: int, table_chars: int) -> list[Section]:
    title_shape = slide.shapes.title
    title = " ".join(_text(title_shape.text_frame).split()) if title_shape is not None else ""
    heading = (title,) if title else ()
    parts = [title] if title else []
    tables: list[Section] = []
    for shape in _shapes(slide.shapes):
        if title_shape is not None and shape.shape_id == title_shape.shape_id:
            continue
        if getattr(shape, "has_table", False):
            tables.extend(table_sections(_table_rows(shape.table), max_chars=table_chars, heading_path=heading,
                                         page=number))
        elif getattr(shape, "has_text_frame", False) and (text := _text(shape.text_frame)):
            parts.append(text)
    if slide.has_notes_slide and (notes_frame := slide.notes_slide.notes_text_frame) is not None:
        if notes := _text(notes_frame):
            parts.append(notes)
    body = [Section(text="\n\n".join(parts), page=number, heading_path=heading)] if parts else []
    return body + tables


def load_pptx(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Load a .pptx after the zip guard: one section per slide (page = slide number) and its tables."""
    check_zip_safety(path)
    import pptx

    table_chars = (context or LoadContext()).table_chars
    try:
        presentation = pptx.Presentation(str(path))
        sections = [s for n, slide in enumerate(presentation.slides, 1)
                    for s in _slide_sections(slide, n, table_chars)]
    except (OSError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # python-pptx/lxml raise many types on broken files
        raise LoadError.coded("pptx_damaged") from exc
    if not sections:
        raise LoadError.coded("pptx_no_text")
    return ParsedDocument(sections=tuple(sections))
