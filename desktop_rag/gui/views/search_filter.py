"""The search filter under the chat: ask within one folder of the library and/or one file type."""

from __future__ import annotations

from collections.abc import Iterable
from math import ceil

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from desktop_rag.engine import TYPE_NAMES
from desktop_rag.gui import i18n
from desktop_rag.gui.views.panel import plain_label

_MAX_SHOWN = 80  # characters of a folder path shown in the combo (no tooltip: Qt may read one as rich text)


def _shown(path: str) -> str:
    """A folder path as one line of plain text: control characters visible, long paths cut in the middle."""
    flat = "".join(ch if ch.isprintable() else "\ufffd" for ch in path)
    return flat if len(flat) <= _MAX_SHOWN else flat[:20] + "…" + flat[-(_MAX_SHOWN - 21):]


class SearchFilterBar(QWidget):
    """Two combo boxes: a folder (the library's source folders) and a file type; `changed` on every choice."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 4, 0)
        self.label: QLabel = plain_label(self)
        row.addWidget(self.label)
        self.folder_combo = QComboBox(self)
        self.folder_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.folder_combo.setMinimumContentsLength(6)  # a narrow window keeps its size; long paths are elided
        self.folder_combo.activated.connect(lambda _i: self.changed.emit())
        row.addWidget(self.folder_combo, 1)
        self.type_combo = QComboBox(self)
        self.type_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.type_combo.setMinimumContentsLength(6)
        self.type_combo.activated.connect(lambda _i: self.changed.emit())
        row.addWidget(self.type_combo)
        self._folders: tuple[str, ...] = ()
        self.folder_combo.addItem("", None)
        for name in (None, *TYPE_NAMES):
            self.type_combo.addItem("", name)
        self._retranslate()
        i18n.on_change(self._retranslate)

    # ---- what the user chose ----

    @property
    def folders(self) -> tuple[str, ...]:
        folder = self.folder_combo.currentData()
        return (folder,) if folder else ()

    @property
    def types(self) -> tuple[str, ...]:
        kind = self.type_combo.currentData()
        return (kind,) if kind else ()

    def choose(self, folder: str | None = None, kind: str | None = None) -> None:
        """Select a folder and a type by value (None: all), as a click would."""
        self.folder_combo.setCurrentIndex(max(self.folder_combo.findData(folder), 0) if folder else 0)
        self.type_combo.setCurrentIndex(max(self.type_combo.findData(kind), 0) if kind else 0)
        self.changed.emit()

    # ---- filling ----

    def set_folders(self, folders: Iterable[str]) -> None:
        """The folders to offer (the library's source folders); a chosen folder that went away resets to all."""
        folders = tuple(sorted(dict.fromkeys(folders)))
        if folders == self._folders:
            return
        self._folders = folders
        chosen = self.folder_combo.currentData()
        self.folder_combo.blockSignals(True)
        self.folder_combo.clear()
        self.folder_combo.addItem(i18n.tr("filter.all_folders"), None)
        for folder in folders:  # combo items are plain text
            self.folder_combo.addItem(_shown(folder), folder)
        index = self.folder_combo.findData(chosen) if chosen else 0
        self.folder_combo.setCurrentIndex(max(index, 0))
        self.folder_combo.blockSignals(False)
        if chosen and index < 0:
            self.changed.emit()

    def _retranslate(self) -> None:
        self.label.setText(i18n.tr("filter.label"))
        self.folder_combo.setItemText(0, i18n.tr("filter.all_folders"))
        self.folder_combo.setToolTip(i18n.tr("filter.folder_tip"))
        self.type_combo.setToolTip(i18n.tr("filter.type_tip"))
        all_types = i18n.tr("filter.all_types")
        self.type_combo.setItemText(0, all_types)
        metrics = self.type_combo.fontMetrics()  # the default choice whole ("All file types" is more than 6 x-widths)
        self.type_combo.setMinimumContentsLength(max(6, ceil(metrics.horizontalAdvance(all_types) /
                                                             metrics.horizontalAdvance("X"))))
        for i, name in enumerate(TYPE_NAMES, 1):
            self.type_combo.setItemText(i, i18n.type_name(name))
