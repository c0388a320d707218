"""A document's text (.docx, .md, .txt) as plain text, scrolled to the passage, highlighted with extra selections;
its Markdown tables drawn as grids with their header (gui/table_grid.py)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QFontDatabase, QSyntaxHighlighter, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from desktop_rag.gui.table_grid import BAR, HEADED_TOP, TOP, GridText

HIGHLIGHT = QColor(255, 224, 130)
LIGHT = QColor(255, 245, 214)  # the rest of a passage whose focus sentences are highlighted (HIGHLIGHT)
FIND = QColor(255, 167, 38)


def utf16_position(text: str, index: int) -> int:
    """The QTextDocument position of text[index] (characters beyond the BMP take two positions)."""
    return index + sum(1 for ch in text[:index] if ord(ch) > 0xFFFF)


def _selection(cursor: QTextCursor, colour: QColor) -> QTextEdit.ExtraSelection:
    selection = QTextEdit.ExtraSelection()
    selection.cursor = cursor
    fmt = QTextCharFormat()
    fmt.setBackground(colour)
    selection.format = fmt
    return selection


def _fixed_family() -> str:
    """A fixed-width family that draws Chinese characters two columns wide (the grids' alignment), if installed."""
    families = set(QFontDatabase.families())
    for family in ("Noto Sans Mono CJK SC", "Sarasa Mono SC", "NSimSun", "MS Gothic", "Osaka"):
        if family in families:
            return family
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()


class _GridLines(QSyntaxHighlighter):
    """Draws a table grid's lines (gui/table_grid.py) in a fixed-width font, its header row bold: a line state
    machine (outside, in a grid's header, in its body) carried from block to block, so only lines in view are
    formatted."""

    OUTSIDE, HEADER, BODY = -1, 1, 2

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.grid = QTextCharFormat()
        self.grid.setFontFamilies([_fixed_family()])
        self.header = QTextCharFormat(self.grid)
        self.header.setFontWeight(QFont.Weight.Bold)

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt's name)
        state = self.previousBlockState()
        if text.startswith((HEADED_TOP, TOP)) and text.endswith("+"):
            starts = state not in (self.HEADER, self.BODY)
            self.setCurrentBlockState(self.HEADER if starts and text.startswith(HEADED_TOP) else self.BODY)
            self.setFormat(0, len(text), self.grid)
        elif text.startswith(BAR) and state in (self.HEADER, self.BODY):
            self.setCurrentBlockState(state)
            self.setFormat(0, len(text), self.header if state == self.HEADER else self.grid)
        else:
            self.setCurrentBlockState(self.OUTSIDE)


class TextPane(QPlainTextEdit):
    """Read-only plain text (documents are untrusted: never rendered as HTML); tables as text grids."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.passage: tuple[int, int] | None = None
        self.focus: tuple[tuple[int, int], ...] = ()
        self.found: tuple[int, int] | None = None
        self.base_point_size = self.font().pointSizeF()
        self.grid = GridText("")
        self._grid_lines = _GridLines(self.document())

    def show_text(self, grid: GridText, passage: tuple[int, int] | None,
                  focus: tuple[tuple[int, int], ...] = ()) -> None:
        """Show `grid` (a document's text, its tables as grids: `grid_text`); highlight and scroll to `passage`
        (start, end offsets into the text before it was drawn) when given. With `focus` (spans inside the passage:
        the sentences an answer quoted or sent to the model) those are highlighted strongly, the rest of the passage
        lightly, and the first of them is scrolled to (with the passage's start when both fit)."""
        self.grid = grid
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth if grid.wrap
                             else QPlainTextEdit.LineWrapMode.NoWrap)
        self.setPlainText(grid.text)
        passage = self._drawn(passage) if passage is not None else None
        self.passage, self.found = passage, None
        self.focus = tuple(self._drawn(span) for span in focus) if passage else ()
        self._apply()
        if passage is not None:
            self.reveal(*self._scroll_span(passage))

    def _drawn(self, span: tuple[int, int]) -> tuple[int, int]:
        """Offsets into the text before it was drawn as positions in the document (Python offsets count code points,
        the document UTF-16 units)."""
        start, end = self.grid.span(*span)
        return utf16_position(self.grid.text, start), utf16_position(self.grid.text, end)

    def _scroll_span(self, passage: tuple[int, int]) -> tuple[int, int]:
        """What to bring into view: the passage; with focus, from the passage's start to the first focus span's
        end when that fits in the view, else that span alone."""
        if not self.focus:
            return passage
        start, end = passage[0], self.focus[0][1]
        fits = self._top(end) - self._top(start) <= 0.8 * self.viewport().height()
        return (start, end) if fits else self.focus[0]

    def _top(self, position: int) -> int:
        return self.cursorRect(self._cursor(position, position)).top()

    def reveal(self, start: int, end: int) -> None:
        """Bring text[start:end] into view, its first line near the middle."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(min(end, self.document().characterCount() - 1))
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        cursor.setPosition(start)
        self.setTextCursor(cursor)
        self.centerCursor()

    def _cursor(self, start: int, end: int) -> QTextCursor:
        cursor = QTextCursor(self.document())
        last = self.document().characterCount() - 1
        cursor.setPosition(min(start, last))
        cursor.setPosition(min(end, last), QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def _apply(self) -> None:
        selections = []
        if self.passage is not None:
            selections.append(_selection(self._cursor(*self.passage), LIGHT if self.focus else HIGHLIGHT))
        selections += [_selection(self._cursor(*span), HIGHLIGHT) for span in self.focus]
        if self.found is not None:
            selections.append(_selection(self._cursor(*self.found), FIND))
        self.setExtraSelections(selections)

    def highlighted_text(self) -> str:
        """The text under the passage highlight (tests and accessibility)."""
        selections = self.extraSelections()
        return selections[0].cursor.selectedText().replace("\u2029", "\n") if self.passage and selections else ""

    def focused_text(self) -> list[str]:
        """The texts under the strong (quoted sentence) highlights (tests and accessibility)."""
        return [self._cursor(*span).selectedText().replace("\u2029", "\n") for span in self.focus]

    def show_found(self, span: tuple[int, int] | None) -> None:
        """Highlight the find bar's match (offsets into the text before it was drawn; None: none) and bring it into
        view."""
        self.found = self._drawn(span) if span is not None else None
        self._apply()
        if self.found is not None:
            self.reveal(*self.found)

    def found_text(self) -> str:
        """The text under the find highlight (tests and accessibility)."""
        return self._cursor(*self.found).selectedText().replace("\u2029", "\n") if self.found is not None else ""

    def set_zoom(self, zoom: float) -> None:
        font = self.font()
        font.setPointSizeF(max(4.0, self.base_point_size * zoom))
        self.setFont(font)
