"""The import rules in pyproject.toml ([tool.importlinter]) hold, and are strict enough to catch a violation."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """Run import-linter on the desktop_rag package under `root`, with the project's contracts."""
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run([sys.executable, "-c", code, "--no-cache"], cwd=root, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})


def test_the_code_keeps_every_contract():
    out = lint_imports(REPO)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "broken" not in out.stdout.lower().replace("0 broken", "")


CYCLES = "No import cycles"
SURFACE = "Front ends use only the engine's public surface"
VIEWS = "GUI views import no controller"
LAYERS = "GUI layers"
QT = "The engine never imports Qt"
# kind: ({file: the line added to it (a new file when it does not exist)}, the contract that must then break)
VIOLATIONS = {
    # the store importing retrieval: a stage importing one above it
    "upward": ({"desktop_rag/engine/store/conversations.py": "from desktop_rag.engine.search import retrieval\n"},
               "Engine stages are layered"),
    # the error texts (the base of the base) reaching up to the errors that use them
    "texts upward": ({"desktop_rag/engine/error_texts/reading.py": "from desktop_rag.engine import errors\n"},
                     "Engine stages are layered"),
    # evaluation typed with the facade again (the untyped `engine` argument it once took), for a type hint only
    "review to facade": ({"desktop_rag/engine/review/evaluation.py": "from typing import TYPE_CHECKING\n"
                          "if TYPE_CHECKING:\n    from desktop_rag.engine.engine import Engine\n"},
                         "Review never reaches the facade"),
    # the engine reaching up to a front end
    "engine to front end": ({"desktop_rag/engine/paths.py": "from desktop_rag.cli import output\n"},
                            "Front ends above the engine"),
    # the circle between two command modules that the layout removed
    "cycle": ({"desktop_rag/cli/output.py": "from desktop_rag.cli import commands\n"}, CYCLES),
    # the circle store -> keyword index -> restriction -> store, restored
    "store circle": ({"desktop_rag/engine/store/scope.py": "from desktop_rag.engine.store import restriction\n"},
                     CYCLES),
    # a view holding its controller
    "view": ({"desktop_rag/gui/views/chat_panel.py": "from desktop_rag.gui.controllers import chat_controller\n"},
             VIEWS),
    # a view reaching a controller through a module between them (the route the two dialogs once took)
    "view indirectly": ({"desktop_rag/gui/relay.py": "from desktop_rag.gui.controllers import settings_flow\n",
                         "desktop_rag/gui/views/settings_dialog.py": "from desktop_rag.gui import relay\n"}, VIEWS),
    # a view running work on a pool of its own
    "view pool": ({"desktop_rag/gui/views/model_download_dialog.py":
                   "from desktop_rag.gui.threads.worker_pool import WorkerPool\n"}, VIEWS),
    # a thread reaching up to a view
    "thread to view": ({"desktop_rag/gui/threads/page_renderer.py": "from desktop_rag.gui.views import panel\n"},
                       LAYERS),
    # a controller reaching up to the composition root
    "controller to window": ({"desktop_rag/gui/controllers/summary_flow.py": "from desktop_rag.gui import main_window\n"},
                             LAYERS),
    # models and threads are independent of each other
    "model to thread": ({"desktop_rag/gui/models/chat.py": "from desktop_rag.gui.threads import worker_pool\n"},
                        LAYERS),
    # the GUI reaching past the engine's surface
    "surface": ({"desktop_rag/gui/text.py": "from desktop_rag.engine.text import keyword\n"}, SURFACE),
    # ... to a base module the former hand-written list missed
    "surface messages": ({"desktop_rag/cli/output.py": "from desktop_rag.engine.messages import message\n"},
                         SURFACE),
    # ... to a sub-package that does not exist yet
    "surface new stage": ({"desktop_rag/engine/rerank/__init__.py": "VALUE = 1\n",
                           "desktop_rag/mcp_server/__init__.py": "from desktop_rag.engine import rerank\n"}, SURFACE),
    # Qt in the engine
    "qt": ({"desktop_rag/engine/paths.py": "import PySide6\n"}, QT),
    # Qt in the check that decides whether Qt can start
    "qt platform check": ({"desktop_rag/platform_check.py": "import PySide6\n"}, QT),
    # a stage reaching one backend past the storage seam (a dialect branch in the making)
    "stage to backend": ({"desktop_rag/engine/search/retrieval.py":
                          "from desktop_rag.engine.store.sqlite import keyword_index\n"},
                         "The stages reach the library through the storage seam"),
    # one backend borrowing from the other
    "backend to backend": ({"desktop_rag/engine/store/postgres/keyword.py":
                            "from desktop_rag.engine.store.sqlite import keyword_index\n"},
                           "The two backends are independent"),
}


def test_every_contract_has_a_violation_test():
    import tomllib

    contracts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    names = {c["name"] for c in contracts["contracts"]}
    assert names == {contract for _, contract in VIOLATIONS.values()}


@pytest.mark.parametrize("kind", sorted(VIOLATIONS))
def test_a_deliberate_violation_fails(tmp_path, kind):
    copy = tmp_path / "project"
    shutil.copytree(REPO / "desktop_rag", copy / "desktop_rag", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    edits, contract = VIOLATIONS[kind]
    for relative, line in edits.items():
        target = copy / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        text = target.read_text(encoding="utf-8") if target.exists() else ""
        head, sep, rest = text.partition("from __future__ import annotations\n")
        line = line.rstrip("\n") + "  # noqa\n"
        target.write_text(head + sep + line + rest if sep else line + text, encoding="utf-8")
    out = lint_imports(copy)
    assert out.returncode != 0, f"{kind}: import-linter accepted a violation\n{out.stdout[-3000:]}"
    broken = [line for line in out.stdout.splitlines() if line.endswith(" BROKEN")]
    assert any(line.startswith(contract) for line in broken), out.stdout[-3000:]
