"""The "Get a model" dialog: pick a recommended embedding model, download it with progress and cancel.

The dialog asks (`download_requested`, `cancel_requested`) and shows what it is told (`show_progress`,
`download_succeeded`, `download_failed`, `download_finished`): the download runs on a controller's pool
(gui/controllers/settings_work.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_rag.engine import model_catalog, model_download
from desktop_rag.gui import i18n

HUB_CHOICES = (model_download.DEFAULT_ENDPOINT, model_download.MIRROR_ENDPOINT)


def default_data_dir(widget: QWidget | None) -> Path:
    """The data dir of the window that owns `widget` (MainWindow.paths), else the resolved one."""
    while widget is not None:
        paths = getattr(widget, "paths", None)
        if paths is not None and hasattr(paths, "data_dir"):
            return Path(paths.data_dir)
        widget = widget.parentWidget()
    from desktop_rag.config import resolve_paths

    return resolve_paths().data_dir


def _mb(n: float) -> str:
    return f"{n / 1e6:,.0f} MB" if n >= 10e6 else f"{n / 1e6:,.1f} MB"


class ModelDownloadDialog(QDialog):
    """Lists the recommended models (`repo_id` selected, else the recommended one); `model_path` and
    `endpoint()` after accept."""

    download_requested = Signal(str, str)  # repo id, hub address
    cancel_requested = Signal()

    def __init__(self, data_dir: Path | None = None, endpoint: str = model_download.DEFAULT_ENDPOINT,
                 parent: QWidget | None = None, repo_id: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(i18n.tr("download.title"))
        self.setMinimumWidth(640)
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir(parent)
        self.model_path = ""
        self.downloading = False
        self._closing = False
        layout = QVBoxLayout(self)
        layout.addWidget(self._model_list(repo_id))
        self.summary = self._label()
        layout.addWidget(self.summary)
        layout.addLayout(self._form(endpoint))
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        layout.addWidget(self.bar)
        self.status = self._label()
        layout.addWidget(self.status)
        self.error = self._label()
        self.error.setStyleSheet("color: #c62828;")
        layout.addWidget(self.error)
        layout.addLayout(self._buttons())
        self._selected()

    # ---- building ----

    def _label(self) -> QLabel:
        label = QLabel(self)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        return label

    def _model_list(self, repo_id: str) -> QTreeWidget:
        tree = QTreeWidget(self)
        tree.setRootIsDecorated(False)
        tree.setHeaderLabels([i18n.tr("download.col.model"), i18n.tr("download.col.languages"),
                              i18n.tr("download.col.size"), i18n.tr("download.col.speed"),
                              i18n.tr("download.col.dimension")])
        for model in model_catalog.CATALOG:
            name = model.display_name + (" ★" if model.recommended else "")
            if model_download.is_downloaded(self.data_dir, model.repo_id):
                name += " — " + i18n.tr("download.present")
            languages = model.language_label(i18n.language())
            item = QTreeWidgetItem([name, languages, _mb(model.download_mb * 1e6),
                                    i18n.tr("download.speed", en=model.chunks_per_s_en, zh=model.chunks_per_s_zh),
                                    str(model.dimension)])
            item.setData(0, Qt.ItemDataRole.UserRole, model.repo_id)
            tree.addTopLevelItem(item)
            if model.repo_id == repo_id or (model.recommended and not repo_id):
                tree.setCurrentItem(item)
        tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        tree.setToolTip(model_catalog.speed_note(i18n.language()))
        tree.currentItemChanged.connect(lambda *_: self._selected())
        self.models = tree
        return tree

    def _form(self, endpoint: str) -> QFormLayout:
        form = QFormLayout()
        self.repo = QLineEdit(self)
        self.repo.setPlaceholderText("organisation/name")
        self.repo.setToolTip(i18n.tr("download.repo_tip"))
        form.addRow(i18n.tr("download.repo"), self.repo)
        self.hub = QComboBox(self)
        self.hub.setEditable(True)
        self.hub.addItems(list(HUB_CHOICES))
        self.hub.setCurrentText(endpoint or model_download.DEFAULT_ENDPOINT)
        self.hub.setToolTip(i18n.tr("download.hub_tip"))
        form.addRow(i18n.tr("download.hub"), self.hub)
        return form

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addStretch(1)
        self.download_button = QPushButton(i18n.tr("download.start"), self)
        self.download_button.setDefault(True)
        self.download_button.clicked.connect(self.start)
        self.cancel_button = QPushButton(i18n.tr("download.cancel"), self)
        self.cancel_button.clicked.connect(self._cancel_clicked)
        row.addWidget(self.download_button)
        row.addWidget(self.cancel_button)
        return row

    # ---- behaviour ----

    def endpoint(self) -> str:
        return self.hub.currentText().strip().rstrip("/") or model_download.DEFAULT_ENDPOINT

    def running(self) -> bool:
        return self.downloading

    def _selected(self) -> None:
        item = self.models.currentItem()
        model = model_catalog.find(item.data(0, Qt.ItemDataRole.UserRole)) if item is not None else None
        if model is None:
            return
        self.repo.setText(model.repo_id)
        summary = model.summary(i18n.language())
        self.summary.setText(f"{model.repo_id}: {summary} ({model.license})")

    def start(self) -> None:
        """Download the model named in the repo field (or use it at once if already downloaded)."""
        if self.running():
            return
        repo_id = self.repo.text().strip()
        self.error.clear()
        try:
            model_download.check_repo_id(repo_id)
            endpoint = model_download.normalize_endpoint(self.endpoint())
        except model_download.DownloadError as exc:
            self.error.setText(i18n.error(exc))
            return
        if model_download.is_downloaded(self.data_dir, repo_id):
            self.download_succeeded(str(model_download.local_model_path(self.data_dir, repo_id)))
            return
        self.downloading = True
        self._set_busy(True)
        self.download_requested.emit(repo_id, endpoint)
        self.status.setText(i18n.tr("download.listing", endpoint=endpoint))

    def _set_busy(self, busy: bool) -> None:
        self.download_button.setEnabled(not busy)
        self.models.setEnabled(not busy)
        self.repo.setEnabled(not busy)
        self.hub.setEnabled(not busy)
        self.cancel_button.setText(i18n.tr("download.stop" if busy else "download.cancel"))

    def show_progress(self, p: model_download.DownloadProgress) -> None:
        if p.phase == "listing" or not p.bytes_total:
            return
        self.bar.setValue(int(p.fraction * 1000))
        text = i18n.tr("download.progress", done=_mb(p.bytes_done), total=_mb(p.bytes_total),
                       files=p.files_done, files_total=p.files_total)
        if p.rate > 0:
            text += " · " + i18n.tr("download.rate", rate=p.rate / 1e6)
        if p.eta_seconds is not None and p.phase == "downloading":
            text += " · " + i18n.tr("progress.eta", eta=i18n.format_eta(p.eta_seconds))
        if p.current_file and p.phase != "done":
            text += "\n" + p.current_file
        self.status.setText(text)

    def download_succeeded(self, folder: str) -> None:
        self.model_path = folder
        self.bar.setValue(1000)
        self.status.setText(i18n.tr("download.done", folder=folder))
        if not self._closing:
            self.accept()

    def download_failed(self, kind: str, message: str) -> None:
        if kind == "cancelled":
            self.status.setText(i18n.tr("download.cancelled"))
        else:
            self.status.clear()
            self.error.setText(message)

    def download_finished(self) -> None:
        self.downloading = False
        self._set_busy(False)
        if self._closing:
            self._closing = False
            super().reject()

    def _cancel_clicked(self) -> None:
        if self.running():
            self.status.setText(i18n.tr("download.cancelling"))
            self.cancel_requested.emit()
        else:
            self.reject()

    def reject(self) -> None:
        """Esc / window close: cancel a running download first; the dialog closes when it has stopped."""
        if self.running():
            self._closing = True
            self.status.setText(i18n.tr("download.cancelling"))
            self.cancel_requested.emit()
            return
        super().reject()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self.running():
            event.ignore()
            self.reject()
            return
        super().closeEvent(event)
