"""A QTextBrowser that never loads remote resources and hands link clicks to the app."""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QTextBrowser

from desktop_rag.gui.text import CITE_SCHEME, answer_markdown

MARKDOWN_FEATURES = QTextDocument.MarkdownFeature(
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub.value | QTextDocument.MarkdownFeature.MarkdownNoHTML.value
)


class SafeTextBrowser(QTextBrowser):
    """Renders answer Markdown safely; `cite:n` links emit citation_clicked, web links open only on click."""

    citation_clicked = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor)

    def set_answer_markdown(self, text: str) -> None:
        self.document().setMarkdown(answer_markdown(text), MARKDOWN_FEATURES)

    def loadResource(self, kind: int, url: QUrl | str):  # noqa: N802 - Qt override
        """Refuse every external resource: no remote images, no local file peeking."""
        return None

    def _on_anchor(self, url: QUrl) -> None:
        if url.scheme() == CITE_SCHEME:
            try:
                self.citation_clicked.emit(int(url.path()))
            except ValueError:
                pass
        elif url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
