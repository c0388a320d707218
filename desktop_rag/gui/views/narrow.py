"""Pieces that let a chat bubble follow its view's width: a row of widgets that wraps onto more lines when narrow
(`FlowLayout`) and plain text that wraps at word boundaries, or anywhere inside a word longer than a line
(`WrapLabel`: a URL, a Chinese run), so neither ever makes a bubble wider than its view."""

from __future__ import annotations

from math import ceil

from PySide6.QtCore import QPoint, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QPainter, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel, QLayout, QLayoutItem, QSizePolicy, QWidget, QWidgetItem


class FlowLayout(QLayout):
    """Items left to right, onto the next line when the width runs out; lines right-aligned with
    `setAlignment(Qt.AlignmentFlag.AlignRight)`. Its minimum width is its widest item."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt override
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt override
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt override
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt override
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt override
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt override
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        shown = self._shown()
        width = sum(item.sizeHint().width() for item in shown) + self.spacing() * max(len(shown) - 1, 0)
        return QSize(width, self.heightForWidth(width)) + self._margins()

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt override
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        return size + self._margins()

    def _margins(self) -> QSize:
        m = self.contentsMargins()
        return QSize(m.left() + m.right(), m.top() + m.bottom())

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the items out in `rect` (moving them when `move`); returns the height they take."""
        area = rect.marginsRemoved(self.contentsMargins())
        lines: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        used = 0
        for item in self._shown():
            size = item.sizeHint().boundedTo(QSize(area.width(), item.sizeHint().height()))
            if lines[-1] and used + self.spacing() + size.width() > area.width():
                lines.append([])
                used = 0
            used += (self.spacing() if lines[-1] else 0) + size.width()
            lines[-1].append((item, size))
        y = area.y()
        for line in filter(None, lines):
            width = sum(size.width() for _, size in line) + self.spacing() * (len(line) - 1)
            x = area.x() + (area.width() - width if self.alignment() & Qt.AlignmentFlag.AlignRight else 0)
            height = max(size.height() for _, size in line)
            for item, size in line:
                if move:
                    item.setGeometry(QRect(QPoint(x, y + (height - size.height()) // 2), size))
                x += size.width() + self.spacing()
            y += height + self.spacing()
        m = self.contentsMargins()
        return max(y - self.spacing() - area.y(), 0) + m.top() + m.bottom()


def flow_of(widgets: list[QWidget], parent: QWidget, align_right: bool = False) -> QWidget:
    """A widget holding `widgets` in a FlowLayout (its lines right-aligned when `align_right`)."""
    holder = QWidget(parent)
    flow = FlowLayout(holder)
    if align_right:
        flow.setAlignment(Qt.AlignmentFlag.AlignRight)
    for widget in widgets:
        widget.setParent(holder)
        flow.addItem(QWidgetItem(widget))
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
    policy.setHeightForWidth(True)
    holder.setSizePolicy(policy)
    return holder


class WrapLabel(QLabel):
    """Plain text wrapped at word boundaries, or anywhere inside a word longer than the line: its minimum width is
    a few characters, so a long URL or Chinese run never widens its parent. Colour and font follow its style."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def _lines(self, width: int) -> QTextLayout:
        layout = QTextLayout(self.text().replace("\n", "\u2028"), self.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        y = 0.0
        while (line := layout.createLine()).isValid():
            line.setLineWidth(max(width, 1))
            line.setPosition(QPointF(0, y))
            y += line.height()
        layout.endLayout()
        return layout

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt override
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        m = self.contentsMargins()
        text_width = width - m.left() - m.right()
        return ceil(self._lines(text_width).boundingRect().height()) + m.top() + m.bottom()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        m = self.contentsMargins()
        width = ceil(self._lines(1 << 20).maximumWidth()) + m.left() + m.right()
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        m = self.contentsMargins()
        return QSize(4 * self.fontMetrics().averageCharWidth(), self.fontMetrics().height()) + QSize(
            m.left() + m.right(), m.top() + m.bottom())

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        area = self.contentsRect()
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        self._lines(area.width()).draw(painter, QPointF(area.topLeft()))
