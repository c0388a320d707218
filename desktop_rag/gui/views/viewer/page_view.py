"""One PDF page: the rendered image (or a placeholder while it renders) with the passage highlight drawn over it."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QScrollArea, QSizePolicy, QWidget

Rect = tuple[float, float, float, float]  # points, top-left origin
HIGHLIGHT = QColor(255, 213, 0, 110)
LIGHT = QColor(255, 213, 0, 40)  # the rest of a passage whose focus sentences are highlighted (HIGHLIGHT)
HIGHLIGHT_EDGE = QColor(230, 160, 0, 200)
FIND = QColor(255, 120, 0, 120)
PAD_PT = 1.5  # the highlight extends this far around the text boxes
PLACEHOLDER_MARGIN = 40  # pixels left clear each side of what a page not drawn says
PLACEHOLDER_ROOM = QSize(360, 240)  # the least a page not drawn (yet) takes: room for what it says (a 0.1 pt page)


class PageWidget(QWidget):
    """Paints a page at `zoom` pixels per point; rectangles are given in points and scaled with it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.page_size: tuple[float, float] = (612.0, 792.0)
        self.zoom = 1.0
        self.image: QImage | None = None
        self.highlight: tuple[Rect, ...] = ()
        self.find_rects: tuple[Rect, ...] = ()
        self.focus: tuple[Rect, ...] = ()
        self.placeholder = ""
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def set_page(self, page_size: tuple[float, float], zoom: float, image: QImage | None,
                 highlight: tuple[Rect, ...] = (), find_rects: tuple[Rect, ...] = (), placeholder: str = "",
                 focus: tuple[Rect, ...] = ()) -> None:
        """`highlight`: the passage (lightly when `focus`, the quoted sentences' rectangles, is drawn strongly)."""
        self.page_size, self.zoom, self.image = page_size, zoom, image
        self.focus = tuple(focus)
        self.highlight, self.find_rects, self.placeholder = tuple(highlight), tuple(find_rects), placeholder
        self.setFixedSize(self.sizeHint())
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        size = QSize(max(1, round(self.page_size[0] * self.zoom)), max(1, round(self.page_size[1] * self.zoom)))
        return size if self.image is not None or not self.placeholder else size.expandedTo(PLACEHOLDER_ROOM)

    def to_pixels(self, rect: Rect) -> QRectF:
        """A rectangle in points as widget pixels (padded a little, as drawn)."""
        left, top, right, bottom = rect
        z = self.zoom
        return QRectF((left - PAD_PT) * z, (top - PAD_PT) * z, (right - left + 2 * PAD_PT) * z,
                      (bottom - top + 2 * PAD_PT) * z)

    def highlight_pixels(self) -> list[QRectF]:
        """The passage highlight as drawn, in widget pixels."""
        return [self.to_pixels(r) for r in self.highlight]

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        """Only the exposed part is drawn; the image is drawn unscaled when it matches the widget's pixels."""
        painter = QPainter(self)
        exposed = event.rect()
        painter.fillRect(exposed, Qt.GlobalColor.white)
        image = self.image
        if image is not None and not image.isNull():
            fx, fy = image.width() / max(1, self.width()), image.height() / max(1, self.height())
            source = QRectF(exposed.x() * fx, exposed.y() * fy, exposed.width() * fx, exposed.height() * fy)
            if abs(fx - self.devicePixelRatioF()) > 0.01:
                painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(QRectF(exposed), image, source)
        elif self.placeholder:  # wrapped within the page, a margin each side (a reason is longer than a page is wide)
            painter.setPen(QColor("#80868b"))
            margin = min(PLACEHOLDER_MARGIN, self.width() // 4)
            painter.drawText(self.rect().adjusted(margin, 0, -margin, 0),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.placeholder)
        painter.setPen(QPen(HIGHLIGHT_EDGE, 1))
        for rect in self.highlight:
            painter.fillRect(self.to_pixels(rect), LIGHT if self.focus else HIGHLIGHT)
        for rect in self.focus:
            painter.fillRect(self.to_pixels(rect), HIGHLIGHT)
        painter.setPen(Qt.PenStyle.NoPen)
        for rect in self.find_rects:
            painter.fillRect(self.to_pixels(rect), FIND)
        painter.end()


class PageScroll(QScrollArea):
    """The page in a scroll area, centred; can bring a rectangle into view."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.page = PageWidget()
        self.setWidget(self.page)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.setBackgroundRole(self.backgroundRole())
        self.setStyleSheet("QScrollArea { background: #e8eaed; }")

    def reveal(self, rects: tuple[Rect, ...]) -> None:
        """Scroll so the first rectangle is in view, a third of the way down."""
        if not rects:
            self.verticalScrollBar().setValue(0)
            return
        box = self.page.to_pixels(rects[0])
        self.verticalScrollBar().setValue(max(0, int(box.top() - self.viewport().height() / 3)))
        self.horizontalScrollBar().setValue(max(0, int(box.left() - 40)))
