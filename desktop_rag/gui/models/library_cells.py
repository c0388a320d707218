"""What a library table cell shows for a role: text, tooltip, colour, font, icon, alignment and the custom roles."""

from __future__ import annotations

import functools
import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QApplication, QStyle

from desktop_rag.engine import Reason
from desktop_rag.gui import i18n
from desktop_rag.gui.models.library_rows import (
    COL_CHUNKS,
    COL_NAME,
    COL_STATE,
    ErrorRole,
    ExpandedRole,
    FileRow,
    KindRole,
    LinkedRole,
    PathRole,
    SourceRow,
    StateRole,
)

HEADERS = ("library.col.name", "library.col.state", "library.col.chunks")
ATTACHMENT_MARK = "\u21b3 "  # "↳ ": an e-mail's attachment, in the row under its message
_STATE_COLOURS = {"failed": "#c62828", "indexing": "#1565c0", "queued": "#6d6d6d", "pending": "#6d6d6d",
                  "removed": "#9e9e9e"}


@functools.cache
def _bold() -> QFont:
    font = QFont()
    font.setBold(True)
    return font


def source_data(source: SourceRow, expansion: bool | None, column: int, role: int) -> object:
    """A source's cell; `expansion` is its ExpandedRole (None when it has no files to show)."""
    if role == Qt.ItemDataRole.DisplayRole:
        if column == COL_NAME:
            return os.path.basename(source.path.rstrip("/\\")) or source.path
        if column == COL_STATE:
            text = i18n.tr(f"state.{source.kind}" if source.linked else "state.not_linked")
            return f"{text} · {source.failed} ✗" if source.failed else text
        if column == COL_CHUNKS:
            return source.chunks
    if role == Qt.ItemDataRole.ToolTipRole:
        return source.path if source.linked else i18n.tr("library.not_linked_tip", path=source.path)
    if role == Qt.ItemDataRole.ForegroundRole and column == COL_STATE and not source.linked:
        return QBrush(QColor(_STATE_COLOURS["removed"]))
    if column == COL_NAME:
        if role == Qt.ItemDataRole.DecorationRole:
            pixmap = QStyle.StandardPixmap.SP_DirIcon if source.kind == "folder" else \
                QStyle.StandardPixmap.SP_FileIcon
            return QApplication.style().standardIcon(pixmap)
        if role == Qt.ItemDataRole.FontRole:
            return _bold()
    if role == ExpandedRole:
        return expansion
    if role == PathRole:
        return source.path
    if role == KindRole:
        return source.kind
    if role == LinkedRole:
        return source.linked
    return None


def file_detail(state: str, error: Reason | str) -> str:
    """What is said about a file besides its name: why it failed, or its reader's note on an indexed file (from its
    codes, in the interface's language: nothing is matched against English text here, on the GUI thread)."""
    if not error:
        return ""
    return i18n.tr("library.failed_reason" if state == "failed" else "library.note", reason=i18n.error(error))


def file_data(row: FileRow, column: int, role: int) -> object:
    """A file's cell."""
    if role == Qt.ItemDataRole.DisplayRole:
        if column == COL_NAME:
            return ATTACHMENT_MARK + os.path.basename(row.path) if row.attachment else os.path.basename(row.path)
        if column == COL_STATE:
            return i18n.tr(f"state.{row.state}") if row.state else ""
        if column == COL_CHUNKS:
            return row.chunks if row.state in ("indexed", "unchanged") else ""
    if role == Qt.ItemDataRole.ToolTipRole:
        where = i18n.tr("library.attachment_tip", path=row.path) if row.attachment else row.path
        return file_detail(row.state, row.error) or where
    if role == Qt.ItemDataRole.ForegroundRole and column == COL_STATE and row.state in _STATE_COLOURS:
        return QBrush(QColor(_STATE_COLOURS[row.state]))
    if role == Qt.ItemDataRole.TextAlignmentRole and column == COL_CHUNKS:
        return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if role == PathRole:
        return row.path
    if role == StateRole:
        return row.state
    if role == ErrorRole:
        return row.error
    if role == KindRole:
        return "file-row"
    return None
