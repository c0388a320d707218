"""A QTextBrowser that reads no resource from disk or network and opens a link only after the user confirms it."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QImage, QTextDocument
from PySide6.QtWidgets import QCheckBox, QMessageBox, QTextBrowser, QWidget

from desktop_rag.gui import i18n
from desktop_rag.gui.text import CITE_SCHEME, answer_markdown, literal_html

# GitHub-flavoured Markdown (tables, strikethrough, task lists, underline) without raw HTML and without
# md4c's "permissive" autolinks: a bare URL in an answer stays text (md4c flag values, as Qt passes them).
_TABLES, _STRIKETHROUGH, _TASKLISTS, _UNDERLINE = 0x0100, 0x0200, 0x0800, 0x4000
MARKDOWN_FEATURES = QTextDocument.MarkdownFeature(
    _TABLES | _STRIKETHROUGH | _TASKLISTS | _UNDERLINE | QTextDocument.MarkdownFeature.MarkdownNoHTML.value
)
OPENABLE_SCHEMES = frozenset({"http", "https", "mailto"})
MAIL_FIELDS = frozenset({"to", "subject", "body"})  # what a mailto: link may fill in (never attach=, cc=, bcc=...)
MAX_SHOWN_URL = 2000  # characters of the target shown in the confirmation (the full one is in the details)
_trusted_sites: set[tuple[str, str, int]] = set()  # (scheme, host, port) the user chose not to be asked about again


def _blank_image() -> QImage:
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    return image


class SafeTextBrowser(QTextBrowser):
    """Renders answer Markdown safely; `cite:n` links emit citation_clicked, web links open after confirmation."""

    citation_clicked = Signal(int)
    link_opened = Signal(QUrl)  # after the user confirmed and the URL was handed to the system

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setSearchPaths([])
        self.document().setBaseUrl(QUrl())
        self._blank = _blank_image()
        self.anchorClicked.connect(self._on_anchor)
        self.highlighted.connect(self._show_target)

    def set_answer_markdown(self, text: str, passages: int) -> None:
        """Show `text`, its `[n]` a link for passages 1..`passages` (those the answer was given)."""
        self.document().setMarkdown(answer_markdown(text, passages), MARKDOWN_FEATURES)

    # ---- resources: nothing is ever read ----

    def loadResource(self, kind: int, url: QUrl | str):  # noqa: N802 - Qt override
        """Resolve every resource to an empty value the app made itself.

        Returning None (an invalid QVariant) is not enough: QTextDocument then opens the path itself, and
        an empty or undecodable image makes Qt's image handler load the file directly. A valid blank image
        (and an empty style sheet or byte array) ends both fallbacks, so nothing is read from disk or network.
        """
        if kind == QTextDocument.ResourceType.ImageResource.value:
            return self._blank
        if kind == QTextDocument.ResourceType.StyleSheetResource.value:
            return " "
        return QByteArray(b" ")

    def doSetSource(self, name: QUrl, resource_type=None) -> None:  # noqa: N802 - Qt override
        """Never navigate: the browser only shows what the app gives it."""

    # ---- links ----

    def _show_target(self, url: QUrl) -> None:
        """While the pointer is on a link, its tooltip is the real target (not the visible text)."""
        shown = "" if url.isEmpty() or url.scheme() == CITE_SCHEME else url.toString(QUrl.ComponentFormattingOption.FullyEncoded)
        self.setToolTip(literal_html(shown[:MAX_SHOWN_URL]))

    def _on_anchor(self, url: QUrl) -> None:
        if url.scheme() == CITE_SCHEME:
            try:
                self.citation_clicked.emit(int(url.path()))
            except ValueError:
                pass
            return
        open_link(self, url, self.link_opened.emit)


def _site(url: QUrl) -> tuple[str, str, int]:
    return url.scheme().lower(), url.host(QUrl.ComponentFormattingOption.FullyEncoded).lower(), url.port(-1)


def is_openable(url: QUrl) -> bool:
    """Only web pages (with a host) and e-mail addresses may leave the app."""
    scheme = url.scheme().lower()
    if not url.isValid() or scheme not in OPENABLE_SCHEMES:
        return False
    return scheme == "mailto" or bool(url.host())


def mail_only(url: QUrl) -> QUrl:
    """A mailto: link with only its addresses, subject and body: `attach=/etc/passwd` and other parameters
    (headers a mail app may honour) are dropped, and so is any fragment."""
    kept = [part for part in url.query(QUrl.ComponentFormattingOption.FullyEncoded).split("&")
            if part and QUrl.fromPercentEncoding(part.split("=", 1)[0].encode()).strip().lower() in MAIL_FIELDS]
    clean = QUrl(url)
    clean.setQuery("&".join(kept) or None)
    clean.setFragment(None)
    return clean


def hides_mail_fields(url: QUrl) -> bool:
    """A mailto: address that decodes to a `?` or `&` (`a@b.c%3Fattach=/etc/passwd`, also encoded twice): a mail
    app that decodes the address first may read what follows as fields, such as a file to attach."""
    path = url.path(QUrl.ComponentFormattingOption.FullyEncoded)
    for _ in range(4):
        decoded = QUrl.fromPercentEncoding(path.encode())
        if decoded == path:
            break
        path = decoded
    return "?" in path or "&" in path


def open_link(parent: QWidget, url: QUrl, opened=None) -> bool:
    """Open `url` in the system's browser or mail app after the user saw its real target and agreed."""
    if not is_openable(url):
        _refuse(parent, url)
        return False
    if url.scheme().lower() == "mailto":
        if hides_mail_fields(url):
            _refuse(parent, url, "link.mail_refused")
            return False
        url = mail_only(url)  # what the user confirms is exactly what the mail app gets
    if _site(url) not in _trusted_sites and not _confirm(parent, url):
        return False
    QDesktopServices.openUrl(url)
    if opened is not None:
        opened(url)
    return True


def _target_text(url: QUrl) -> str:
    """The target as it will be opened, fully encoded: no look-alike Unicode, no hidden characters."""
    target = url.toString(QUrl.ComponentFormattingOption.FullyEncoded)
    return target if len(target) <= MAX_SHOWN_URL else target[:MAX_SHOWN_URL] + "…"


def _plain_box(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str) -> QMessageBox:
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.NoButton, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return box


def _confirm(parent: QWidget, url: QUrl) -> bool:
    scheme, host, _port = _site(url)
    where = i18n.tr("link.mail", address=url.path(QUrl.ComponentFormattingOption.FullyEncoded)) if scheme == "mailto" \
        else i18n.tr("link.site", host=host)
    text = f"{i18n.tr('link.confirm')}\n\n{where}\n{i18n.tr('link.address', url=_target_text(url))}"
    box = _plain_box(parent, QMessageBox.Icon.Question, i18n.tr("link.confirm_title"), text)
    box.setObjectName("linkConfirmation")
    open_button = box.addButton(i18n.tr("link.open"), QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    remember = None
    if scheme != "mailto":
        remember = QCheckBox(i18n.tr("link.remember"), box)
        box.setCheckBox(remember)
    box.exec()
    accepted = box.clickedButton() is open_button
    if accepted and remember is not None and remember.isChecked():
        _trusted_sites.add(_site(url))
    box.deleteLater()
    return accepted


def _refuse(parent: QWidget, url: QUrl, why: str = "link.refused") -> None:
    text = f"{i18n.tr(why)}\n\n{i18n.tr('link.address', url=_target_text(url))}"
    box = _plain_box(parent, QMessageBox.Icon.Warning, i18n.tr("link.confirm_title"), text)
    box.setObjectName("linkRefused")
    box.addButton(QMessageBox.StandardButton.Ok)
    box.exec()
    box.deleteLater()


def forget_trusted_sites() -> None:
    """Ask again for every site (the per-session memory starts empty with each app run)."""
    _trusted_sites.clear()
