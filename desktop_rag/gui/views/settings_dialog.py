"""The Settings dialog: language model provider and key, embedding model, chunking, retrieval, UI language, where the
library is."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.config import AUTO_MODEL, BUNDLED_MODEL, REPLY_TOKENS, Settings
from desktop_rag.engine import PRESETS, Localised, address_notice, key_problem, resolve_llm_config, sends_in_clear
from desktop_rag.gui import i18n
from desktop_rag.gui.views.feedback_settings import FeedbackSettings
from desktop_rag.gui.views.library_settings import LibrarySettings


class SettingsDialog(QDialog):
    """Edits a copy of Settings plus the API key; `result_settings()` and `api_key()` after accept.
    `clear_answers_requested`: the user asked to remove the stored answers now (answered by `show_answers_cleared`);
    `connection_test_requested(config)`: test this model server (answered by `show_test`); `model_download_requested`:
    open the Get-a-model dialog (answered by `use_downloaded_model`); `library.test_requested`: test a library's
    server (answered by `library.show_test`). A controller does the work (gui/controllers/settings_work.py)."""

    clear_answers_requested = Signal()
    connection_test_requested = Signal(object)
    model_download_requested = Signal()

    def __init__(self, settings: Settings, api_key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(i18n.tr("settings.title"))
        self.setMinimumWidth(560)
        self._settings = settings
        self.testing = False
        groups = QWidget(self)  # scrolled where the screen is lower than the groups (a 768-pixel laptop)
        column = QVBoxLayout(groups)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self._model_group(settings, api_key))
        column.addWidget(self._index_group(settings))
        self.library = LibrarySettings(settings.library, self)  # this computer or a PostgreSQL server (issue 46)
        column.addWidget(self.library)
        scroll = QScrollArea(self)
        scroll.setWidget(groups)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.buttons)
        screen = (parent.screen() if parent is not None else self.screen()).availableGeometry()
        wanted = groups.sizeHint().height() + self.buttons.sizeHint().height() + 3 * layout.spacing() + 24
        self.resize(max(560, groups.sizeHint().width() + 30), min(wanted, int(screen.height() * 0.92)))

    # ---- building ----

    def _model_group(self, settings: Settings, api_key: str) -> QGroupBox:
        group = QGroupBox(i18n.tr("settings.model_group"), self)
        form = QFormLayout(group)
        self.provider = QComboBox(group)
        self.provider.addItem("—", "")
        for name, preset in PRESETS.items():
            self.provider.addItem(preset.label.text(i18n.language()), name)  # the engine's names
        self.base_url = QLineEdit(settings.llm_base_url, group)
        self.model = QLineEdit(settings.llm_model, group)
        self.key = QLineEdit(api_key, group)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setToolTip(i18n.tr("settings.api_key_hint"))
        index = max(self.provider.findData(settings.llm_provider), 0)
        self.provider.setCurrentIndex(index)
        self.provider.currentIndexChanged.connect(self._preset_chosen)
        form.addRow(i18n.tr("settings.provider"), self.provider)
        form.addRow(i18n.tr("settings.base_url"), self.base_url)
        self.http_warning = _warning(group, i18n.tr("settings.http_warning"))
        form.addRow(self.http_warning)
        self.address_notice = _warning(group)  # a user:password@ in the address: not sent (the key is)
        form.addRow(self.address_notice)
        self.base_url.textChanged.connect(self._update_address_warnings)
        self._update_address_warnings()
        form.addRow(i18n.tr("settings.model"), self.model)
        form.addRow(i18n.tr("settings.api_key"), self.key)
        self.key_problem = _warning(group)  # a key that cannot be sent: what is wrong and where (OK is refused)
        form.addRow(self.key_problem)
        self.key.textChanged.connect(self._update_key_problem)
        self._update_key_problem()
        row = QHBoxLayout()
        self.test_button = QPushButton(i18n.tr("settings.test"), group)
        self.test_button.clicked.connect(self.check_connection)
        row.addWidget(self.test_button)
        self.test_result = QLabel(group)
        self.test_result.setWordWrap(True)
        self.test_result.setTextFormat(Qt.TextFormat.PlainText)
        row.addWidget(self.test_result, 1)
        form.addRow(row)
        self.reply_tokens = self._spin(group, *REPLY_TOKENS, settings.max_reply_tokens)
        self.reply_tokens.setSingleStep(1024)
        self.reply_tokens.setToolTip(i18n.tr("settings.max_reply_tokens_tip"))
        form.addRow(i18n.tr("settings.max_reply_tokens"), self.reply_tokens)
        self.translate = QCheckBox(i18n.tr("settings.translate_queries"), group)
        self.translate.setChecked(settings.translate_queries)
        form.addRow(self.translate)
        self.compression = QComboBox(group)
        for mode in ("auto", "always", "off"):
            self.compression.addItem(i18n.tr(f"settings.compression_{mode}"), mode)
        self.compression.setCurrentIndex(max(self.compression.findData(settings.context_compression), 0))
        self.compression.setToolTip(i18n.tr("settings.compression_tip"))
        form.addRow(i18n.tr("settings.compression"), self.compression)
        self.answer_cache = QCheckBox(i18n.tr("settings.answer_cache"), group)
        self.answer_cache.setChecked(settings.answer_cache)
        form.addRow(self.answer_cache)
        form.addRow(self._clear_answers_row(group))
        self.summary_budget = self._spin(group, 0, 2_000_000, settings.summary_budget_tokens)  # 0: automatic
        self.summary_budget.setSingleStep(1000)
        self.summary_budget.setSpecialValueText(i18n.tr("settings.summary_budget_auto"))
        self.summary_budget.setToolTip(i18n.tr("settings.summary_budget_tip"))
        form.addRow(i18n.tr("settings.summary_budget"), self.summary_budget)
        self.feedback = FeedbackSettings(settings.feedback, group)  # learn from grades; forget them (issue 39)
        form.addRow(self.feedback)
        return group

    def _clear_answers_row(self, group: QGroupBox) -> QHBoxLayout:
        row = QHBoxLayout()
        self.clear_answers_button = QPushButton(i18n.tr("settings.clear_answers"), group)
        self.clear_answers_button.setToolTip(i18n.tr("settings.clear_answers_tip"))
        self.clear_answers_button.clicked.connect(self._clear_answers)
        self.clear_answers_result = QLabel(group)
        self.clear_answers_result.setTextFormat(Qt.TextFormat.PlainText)
        self.clear_answers_result.setWordWrap(True)
        row.addWidget(self.clear_answers_button)
        row.addWidget(self.clear_answers_result, 1)
        return row

    def _index_group(self, settings: Settings) -> QGroupBox:
        group = QGroupBox(i18n.tr("settings.index_group"), self)
        form = QFormLayout(group)
        row = QHBoxLayout()
        self.embedding = QLineEdit(settings.embedding_model, group)
        self.embedding.setPlaceholderText(AUTO_MODEL)
        self.embedding.setToolTip(i18n.tr("settings.embedding_auto_tip"))
        automatic = QPushButton(i18n.tr("settings.embedding_auto"), group)
        automatic.clicked.connect(lambda: self.embedding.setText(AUTO_MODEL))
        bundled = QPushButton(i18n.tr("settings.embedding_bundled"), group)
        bundled.clicked.connect(lambda: self.embedding.setText(BUNDLED_MODEL))
        browse = QPushButton(i18n.tr("settings.browse"), group)
        browse.clicked.connect(self._pick_model_folder)
        row.addWidget(self.embedding, 1)
        row.addWidget(automatic)
        row.addWidget(bundled)
        row.addWidget(browse)
        self.get_model_button = QPushButton(i18n.tr("settings.get_model"), group)
        self.get_model_button.clicked.connect(self.model_download_requested)
        row.addWidget(self.get_model_button)
        form.addRow(i18n.tr("settings.embedding"), row)
        self.chunk_size = self._spin(group, 100, 8000, settings.chunk_size)
        self.chunk_overlap = self._spin(group, 0, 2000, settings.chunk_overlap)
        self.top_k = self._spin(group, 1, 50, settings.top_k)
        self.min_score = QDoubleSpinBox(group)
        self.min_score.setRange(-1.0, 1.0)
        self.min_score.setSingleStep(0.05)
        self.min_score.setDecimals(2)
        self.min_score.setValue(settings.min_score)
        self.language = QComboBox(group)
        self.language.addItem(i18n.tr("settings.lang_auto"), "auto")
        self.language.addItem("English", "en")
        self.language.addItem("简体中文", "zh")
        self.language.setCurrentIndex(max(self.language.findData(settings.ui_language), 0))
        form.addRow(i18n.tr("settings.chunk_size"), self.chunk_size)
        form.addRow(i18n.tr("settings.chunk_overlap"), self.chunk_overlap)
        form.addRow(i18n.tr("settings.top_k"), self.top_k)
        form.addRow(i18n.tr("settings.min_score"), self.min_score)
        form.addRow(i18n.tr("settings.language"), self.language)
        self.ocr = QCheckBox(i18n.tr("settings.ocr"), group)
        self.ocr.setChecked(settings.ocr_enabled)
        form.addRow(self.ocr)
        return group

    @staticmethod
    def _spin(parent: QWidget, low: int, high: int, value: int) -> QSpinBox:
        spin = QSpinBox(parent)
        spin.setRange(low, high)
        spin.setValue(value)
        return spin

    # ---- behaviour ----

    def _preset_chosen(self) -> None:
        preset = PRESETS.get(self.provider.currentData() or "")
        if preset is None:
            return
        if preset.base_url:
            self.base_url.setText(preset.base_url)
        if preset.default_model or not self.model.text():
            self.model.setText(preset.default_model)
        self.key.setEnabled(preset.needs_key)
        self.key.setPlaceholderText("" if preset.needs_key else preset.placeholder_key or "not needed")

    def _update_address_warnings(self) -> None:
        """Plain http:// to another machine: the key and the passages would travel unencrypted; a user:password@
        part of the address: it is not sent."""
        self.http_warning.setVisible(sends_in_clear(self.base_url.text()))
        notice = address_notice(self.base_url.text().strip(), i18n.language())
        self.address_notice.setText(notice or "")
        self.address_notice.setVisible(notice is not None)

    def _update_key_problem(self) -> str | None:
        problem = key_problem(self.api_key(), i18n.language())
        self.key_problem.setText(problem or "")
        self.key_problem.setVisible(problem is not None)
        return problem

    def accept(self) -> None:
        """OK, unless the API key cannot be sent or the library's address cannot be used (the message beside it says
        why; nothing is saved)."""
        if self._update_key_problem() is not None:
            self.key.setFocus()
            return
        if self.library.show_problem():
            return
        super().accept()

    def _pick_model_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, i18n.tr("settings.pick_model_folder"))
        if folder:
            self.embedding.setText(folder)

    def hub_endpoint(self) -> str:
        """The model hub (or mirror) these settings download from."""
        return self._settings.hub_endpoint

    def use_downloaded_model(self, folder: str, endpoint: str) -> None:
        """A finished download fills the embedding field (and keeps the hub chosen)."""
        self.embedding.setText(folder)
        self._settings = dataclasses.replace(self._settings, hub_endpoint=endpoint)

    def result_settings(self) -> Settings:
        return dataclasses.replace(
            self._settings,
            llm_provider=self.provider.currentData() or "",
            llm_base_url=self.base_url.text().strip(),
            llm_model=self.model.text().strip(),
            max_reply_tokens=self.reply_tokens.value(),
            embedding_model=self.embedding.text().strip() or AUTO_MODEL,
            chunk_size=self.chunk_size.value(),
            chunk_overlap=min(self.chunk_overlap.value(), self.chunk_size.value() - 1),
            top_k=self.top_k.value(),
            min_score=float(self.min_score.value()),
            ui_language=self.language.currentData() or "auto",
            ocr_enabled=self.ocr.isChecked(),
            translate_queries=self.translate.isChecked(),
            context_compression=self.compression.currentData() or "auto",
            answer_cache=self.answer_cache.isChecked(),
            summary_budget_tokens=self.summary_budget.value() and max(self.summary_budget.value(), 1000),
            feedback=self.feedback.learn.isChecked(),
            library=self.library.location(),
        )

    def api_key(self) -> str:
        return self.key.text().strip()

    def check_connection(self) -> None:
        """Ask for engine.llm.check_connection with these settings (a controller runs it off the GUI thread); the
        result shows beside the button (`show_test`)."""
        if self.testing:
            return
        env = {"OPENAI_API_KEY": self.api_key()} if self.api_key() else {}
        config = resolve_llm_config(self.result_settings(), env)
        if config is None:
            from desktop_rag.engine import config_problem

            self.show_test(False, config_problem(self.result_settings(), env) or "")
            return
        config = dataclasses.replace(config, timeout_s=20.0, max_retries=0, language=i18n.language())
        self.test_button.setEnabled(False)
        self.test_result.setText(i18n.tr("settings.testing"))
        self.testing = True
        self.connection_test_requested.emit(config)

    def _clear_answers(self) -> None:
        self.clear_answers_button.setEnabled(False)
        self.clear_answers_result.clear()
        self.clear_answers_requested.emit()

    def show_answers_cleared(self, removed: int | None, reason: Localised | str = "") -> None:
        """The stored answers were removed (`removed` of them), or not (None, `reason`)."""
        try:
            self.clear_answers_button.setEnabled(True)
            self.clear_answers_result.setText(i18n.tr("settings.answers_cleared", count=removed) if removed is not None
                                              else i18n.tr("settings.answers_not_cleared", reason=reason))
        except RuntimeError:  # the dialog closed meanwhile
            pass

    def show_test(self, ok: int, message: Localised | str) -> None:
        """The connection test's result: `ok` 1 with the server's answer, 0 with why it failed."""
        try:
            self.testing = False
            self.test_button.setEnabled(True)
            self.test_result.setStyleSheet("color: #2e7d32;" if ok else "color: #c62828;")
            self.test_result.setText(i18n.error(message))
        except RuntimeError:  # the dialog closed meanwhile
            pass


def _warning(parent: QWidget, text: str = "") -> QLabel:
    """A red line of plain text under a setting (shown while what it says holds)."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setStyleSheet("color: #c62828;")
    return label
