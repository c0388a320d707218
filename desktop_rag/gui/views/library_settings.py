"""Settings' Library group (issue 46): the library on this computer or on a PostgreSQL server (address, password,
"Test connection"). A password is never shown back and never part of the address saved in the settings: one typed
into the address moves to the password field (echo hidden), which the settings flow keeps in the OS keyring or .env."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit, urlunsplit

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QWidget,
)

from desktop_rag.engine import UsageError, is_server_url, parse_server_url
from desktop_rag.gui import i18n
from desktop_rag.gui.views.panel import plain_label

ADDRESS_HINT = "postgresql://USER@HOST:5432/DATABASE"
_RED, _GREEN = "color: #c62828;", "color: #2e7d32;"


def split_password(address: str) -> tuple[str, str]:
    """`address` without the password it may hold (`postgresql://user:secret@host/db` -> `postgresql://user@host/db`),
    and that password, decoded ("" when there is none)."""
    address = address.strip()
    try:
        parts = urlsplit(address)
    except ValueError:
        return address, ""
    userinfo, at, host = parts.netloc.rpartition("@")
    user, colon, password = userinfo.partition(":")
    if not at or not colon:
        return address, ""
    return urlunsplit(parts._replace(netloc=f"{user}@{host}")), unquote(password)


def library_where(location: str) -> str:
    """A library location as a person sees it: "this computer", or the server's address without any password."""
    if not location.strip():
        return i18n.tr("status.library_this_computer")
    try:
        return parse_server_url(location).display
    except UsageError:  # an unusable address (opening it says why): shown as typed, less any password
        return split_password(location)[0]


class LibrarySettings(QGroupBox):
    """The group; `test_requested(address, password)` asks for a connection test (answered by `show_test`; an
    empty password: the one saved). `location()` and `typed_password()` are what OK saves."""

    test_requested = Signal(str, str)

    def __init__(self, location: str, parent: QWidget | None = None) -> None:
        super().__init__(i18n.tr("settings.library_group"), parent)
        self.testing = False
        form = QFormLayout(self)
        self.local = QRadioButton(i18n.tr("settings.library_local"), self)
        self.server = QRadioButton(i18n.tr("settings.library_server"), self)
        choice = QButtonGroup(self)
        choice.addButton(self.local)
        choice.addButton(self.server)
        row = QHBoxLayout()
        row.addWidget(self.local)
        row.addWidget(self.server)
        row.addStretch(1)
        form.addRow(row)
        self.address = QLineEdit(self)
        self.address.setPlaceholderText(ADDRESS_HINT)
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText(i18n.tr("settings.library_password_keep"))
        form.addRow(i18n.tr("settings.library_url"), self.address)
        form.addRow(i18n.tr("settings.library_password"), self.password)
        self.notice = plain_label(self)  # the password moved out of the address; an address that cannot be used
        self.notice.setWordWrap(True)
        self.notice.hide()
        form.addRow(self.notice)
        test_row = QHBoxLayout()
        self.test_button = QPushButton(i18n.tr("settings.library_test"), self)
        self.test_button.clicked.connect(self.check)
        self.test_result = plain_label(self)  # what the server said, a line each, or why it could not be reached
        self.test_result.setWordWrap(True)
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.test_result, 1)
        form.addRow(test_row)
        note = plain_label(self, i18n.tr("settings.library_note"))
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        form.addRow(note)
        on_server = is_server_url(location)
        self.address.setText(location.strip() if on_server else "")
        self.server.setChecked(on_server)
        self.local.setChecked(not on_server)
        self.address.editingFinished.connect(self.take_password_out)
        for field in (self.address, self.password):  # a result said of another address or password goes
            field.textEdited.connect(self._forget_test)
        self.server.toggled.connect(self._enable)
        self.take_password_out()  # an address saved (or set in the environment) with its password
        self._enable()

    # ---- what OK saves ----

    def location(self) -> str:
        """"" for this computer, else the server's address (without a password once `problem` has been asked)."""
        return self.address.text().strip() if self.server.isChecked() else ""

    def typed_password(self) -> str:
        """The password typed (or moved out of the address); "" keeps the one saved."""
        return self.password.text() if self.server.isChecked() else ""

    def problem(self) -> str | None:
        """Why the chosen location cannot be saved (shown beside the address), or None."""
        self.take_password_out()
        if not self.server.isChecked():
            return None
        if not self.address.text().strip():
            return i18n.tr("settings.library_url_missing")
        try:
            parse_server_url(self.location())
        except UsageError as exc:
            return i18n.error(exc)
        return None

    def show_problem(self) -> bool:
        """Say what is wrong with the location, if anything (True then)."""
        problem = self.problem()
        if problem is not None:
            self._say(problem, _RED)
            self.address.setFocus()
        return problem is not None

    # ---- behaviour ----

    def take_password_out(self) -> None:
        """A password typed into the address goes to the password field (and never into the settings)."""
        address, password = split_password(self.address.text())
        if password:
            self.address.setText(address)
            self.password.setText(password)
            self._say(i18n.tr("settings.library_password_moved"), "")

    def check(self) -> None:
        """Ask for a test of the server at the address (a controller runs it off the GUI thread)."""
        if self.testing or self.show_problem():
            return
        self.notice.hide()
        self.testing = True
        self.test_button.setEnabled(False)
        self.test_result.setStyleSheet("")
        self.test_result.setText(i18n.tr("settings.library_testing"))
        self.test_requested.emit(self.location(), self.password.text())

    def show_test(self, ok: int, text: str) -> None:
        """The test's result: `ok` 1 when the library can be used as this role, with what was found (a line each);
        0 with what is missing, or why the server could not be reached."""
        try:
            self.testing = False
            self.test_button.setEnabled(self.server.isChecked())
            self.test_result.setStyleSheet(_GREEN if ok else _RED)
            self.test_result.setText(text)
        except RuntimeError:  # the dialog closed meanwhile
            pass

    def _forget_test(self) -> None:
        if not self.testing:
            self.test_result.clear()

    def _say(self, text: str, style: str) -> None:
        self.notice.setStyleSheet(style)
        self.notice.setText(text)
        self.notice.show()

    def _enable(self) -> None:
        on_server = self.server.isChecked()
        for widget in (self.address, self.password):
            widget.setEnabled(on_server)
        self.test_button.setEnabled(on_server and not self.testing)
