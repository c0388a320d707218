"""The desktop app entry point: QApplication, fonts with CJK fallbacks, the main window, clean exit, and starting
again on another library (Settings' restart)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_rag.config import LIBRARY_ENV, AppPaths, Settings, resource_path
from desktop_rag.engine import PASSWORD_VARIABLE, DesktopRagError
from desktop_rag.gui import gc_guard, i18n
from desktop_rag.gui.secrets import library_password_set_here

log = logging.getLogger(__name__)

UI_FAMILIES = ["Segoe UI", "SF Pro Text", "Helvetica Neue", "Noto Sans", "DejaVu Sans", "Ubuntu", "Cantarell"]
CJK_FAMILIES = ["Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC",
                "Hiragino Sans GB", "SimHei"]


def font_families() -> list[str]:
    """Installed UI families first, then CJK fallbacks, so Latin and Chinese both render well."""
    installed = set(QFontDatabase.families())
    chosen = [f for f in UI_FAMILIES if f in installed][:1]
    chosen += [f for f in CJK_FAMILIES if f in installed]
    return chosen or UI_FAMILIES[:1] + CJK_FAMILIES


def apply_fonts(app: QApplication) -> None:
    font = QFont(app.font())
    font.setFamilies(font_families())
    if font.pointSizeF() < 10:
        font.setPointSizeF(10)
    app.setFont(font)


GIL_SWITCH_S = 0.0005  # a view's paint makes a Python call per cell from C++; behind a busy worker thread each
# waited up to one switch interval (5 ms by default) for the GIL: 100-300 ms stalls under a 100k-event flood


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (reused when one exists, e.g. under pytest-qt)."""
    app = QApplication.instance()
    if app is None:
        QCoreApplication.setOrganizationName("desktop-rag")
        QCoreApplication.setApplicationName("Desktop RAG")
        app = QApplication(argv if argv is not None else sys.argv[:1])
        app.setStyle("Fusion")
        app.setWindowIcon(QIcon(str(resource_path("icons", "desktop-rag.png"))))
        QGuiApplication.setDesktopFileName("desktop-rag")
    apply_fonts(app)  # type: ignore[arg-type]
    i18n.install_qt_texts(app)
    gc_guard.install(app)
    sys.setswitchinterval(GIL_SWITCH_S)
    return app  # type: ignore[return-value]


def run(paths: AppPaths, settings: Settings) -> int:
    """Open the main window at once (model and index load in the background); returns the exit code."""
    app = create_application()
    from desktop_rag.gui.crash_handler import install_excepthook
    from desktop_rag.logs import current_log_file, setup_logging

    # Not in create_application: pytest-qt owns the hook in tests. The CLI has usually set up logging already.
    install_excepthook(current_log_file() or setup_logging(paths))
    from desktop_rag.gui.main_window import MainWindow

    try:
        window = MainWindow(paths, settings)
    except DesktopRagError as exc:  # e.g. a library address that cannot be used: said in a window, not only on stderr
        QMessageBox.critical(None, i18n.tr("app.cannot_start"), i18n.error(exc))
        raise
    window.show()
    if os.environ.get("DESKTOP_RAG_EXIT_AFTER_SHOWN"):  # start-up benchmark hook (bench/startup.py)
        QTimer.singleShot(0, lambda: (print(f"DESKTOP_RAG_SHOWN {time.time()}", flush=True), window.close()))
    try:
        code = int(app.exec())
    finally:
        if not window._closed:
            window.close()
    if window.restart_library is not None:  # Settings' "Restart now": everything is saved and joined by now
        relaunch(window.restart_library)
    if window.backend.worker_abandoned:  # closed during the model load: nothing left to save
        logging.shutdown()
        os._exit(code)
    return code


def relaunch_command(library: str, argv: Sequence[str] | None = None,
                     environ: Mapping[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that start this app again on `library` (the settings' choice): the same
    program and arguments (`argv`: this process's, the interpreter's own options included) less `--library`, with
    DESKTOP_RAG_LIBRARY naming the library (unset for this computer's), and without a library password this
    process set (the new process reads the keyring or .env for the library it opens)."""
    if argv is None:
        frozen = getattr(sys, "frozen", False)
        argv = [sys.executable, *(sys.argv[1:] if frozen else sys.orig_argv[1:])]
    command: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--library":
            skip = True
        elif not arg.startswith("--library="):
            command.append(arg)
    env = dict(os.environ if environ is None else environ)
    if library.strip():
        env[LIBRARY_ENV] = library.strip()
    else:
        env.pop(LIBRARY_ENV, None)
    if library_password_set_here():
        env.pop(PASSWORD_VARIABLE, None)
    return command, env


def relaunch(library: str) -> subprocess.Popen:
    """Start the app again on `library`, detached from this process (which is about to exit)."""
    command, env = relaunch_command(library)
    detached = ({"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if os.name == "nt"
                else {"start_new_session": True})
    log.info("Starting again on the library chosen in Settings")
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, close_fds=True, **detached)
