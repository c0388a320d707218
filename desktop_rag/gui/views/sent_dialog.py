""""What was sent": the exact messages an answer's request gave the model, read-only plain text that can be copied."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from desktop_rag.engine import SentPrompt
from desktop_rag.gui import i18n
from desktop_rag.gui.views.panel import plain_label


def sent_text(prompt: SentPrompt) -> str:
    """The messages as plain text: each under a line naming its role and tokens, its content exactly as sent;
    with earlier requests (a rewrite, translations), each request in order under a line saying what it was for."""
    requests = (*prompt.earlier, prompt)
    parts = []
    for number, request in enumerate(requests, 1):
        if len(requests) > 1:
            parts.append(i18n.tr("sent.request", number=number, total=len(requests),
                                 purpose=_purpose(request.purpose)))
        for (role, content), tokens in zip(request.messages, request.tokens, strict=True):
            parts.append(i18n.tr("sent.message", role=role, tokens=f"{tokens:,}") + "\n" + content)
    return "\n\n".join(parts)


def _purpose(purpose: str) -> str:
    return i18n.tr(f"sent.purpose_{purpose}") if purpose in ("rewrite", "translation", "section") else i18n.tr(
        "sent.purpose_answer")


def sent_summary(prompt: SentPrompt, cached: bool) -> str:
    """Model, message count, tokens, the compression's saving, the earlier requests; for a stored answer, that it is
    what was sent then."""
    lines = [i18n.tr("sent.totals", model=prompt.model or "?", count=len(prompt.messages),
                     tokens=f"{prompt.total_tokens:,}")]
    if prompt.earlier:
        lines.append(i18n.tr("sent.earlier", count=len(prompt.earlier),
                             tokens=f"{sum(e.total_tokens for e in prompt.earlier):,}",
                             purposes=", ".join(dict.fromkeys(_purpose(e.purpose) for e in prompt.earlier))))
    before, after = prompt.passages_before, prompt.passages_after
    if before > after:
        lines.append(i18n.tr("sent.saving", before=f"{before:,}", after=f"{after:,}",
                             percent=round(100 * (before - after) / before)))
    else:
        lines.append(i18n.tr("sent.no_saving", tokens=f"{after:,}"))
    if cached:
        lines.append(i18n.tr("sent.cached"))
    lines.append(i18n.tr("sent.estimate"))
    return "\n".join(lines)


class SentDialog(QDialog):
    """Read-only: a summary line, the messages as plain text (selectable), Copy and Close."""

    def __init__(self, prompt: SentPrompt, cached: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.prompt, self.cached = prompt, cached
        self.resize(760, 640)
        layout = QVBoxLayout(self)
        self.summary = plain_label(self)  # a model name: literal text
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = QPushButton(self)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self._retranslate()
        i18n.on_change(self._retranslate)  # (open beside the window while the language changes)

    def _retranslate(self) -> None:
        self.setWindowTitle(i18n.tr("sent.title"))
        self.summary.setText(sent_summary(self.prompt, self.cached))
        self.text.setPlainText(sent_text(self.prompt))
        self.copy_button.setText(i18n.tr("chat.copy"))

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text.toPlainText())
