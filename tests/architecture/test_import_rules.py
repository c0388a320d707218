"""The import rules in pyproject.toml ([tool.importlinter]) hold, and are strict enough to catch a violation."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """Run import-linter on the desktop_rag package under `root`, with the project's contracts."""
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run([sys.executable, "-c", code, "--no-cache"], cwd=root, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})


def test_the_code_keeps_every_contract():
    out = lint_imports(ROOT)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "broken" not in out.stdout.lower().replace("0 broken", "")


CYCLES = "No import cycles"
VIOLATIONS = {  # kind: (file, the line added to it, the contract that must then break)
    # the store importing retrieval: a stage importing one above it
    "upward": ("desktop_rag/engine/store/conversations.py", "from desktop_rag.engine.search import retrieval  # noqa\n",
               "Engine stages are layered"),
    # the circle between two command modules that the layout removed
    "cycle": ("desktop_rag/cli/output.py", "from desktop_rag.cli import commands  # noqa\n", CYCLES),
    # the circle store -> keyword index -> restriction -> store, restored
    "store circle": ("desktop_rag/engine/store/scope.py", "from desktop_rag.engine.store import restriction  # noqa\n",
                     CYCLES),
    # a view holding its controller
    "view": ("desktop_rag/gui/views/chat_panel.py", "from desktop_rag.gui.controllers import chat_controller  # noqa\n",
             "GUI views import no controller"),
    # the GUI reaching past the engine's surface
    "surface": ("desktop_rag/gui/text.py", "from desktop_rag.engine.text import keyword  # noqa\n",
                "Front ends use only the engine's public surface"),
    # Qt in the engine
    "qt": ("desktop_rag/engine/paths.py", "import PySide6  # noqa\n", "The engine never imports Qt"),
}


@pytest.mark.parametrize("kind", sorted(VIOLATIONS))
def test_a_deliberate_violation_fails(tmp_path, kind):
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "desktop_rag", copy / "desktop_rag", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    relative, line, contract = VIOLATIONS[kind]
    target = copy / relative
    text = target.read_text(encoding="utf-8")
    head, sep, rest = text.partition("from __future__ import annotations\n")
    target.write_text(head + sep + line + rest if sep else line + text, encoding="utf-8")
    out = lint_imports(copy)
    assert out.returncode != 0, f"{kind}: import-linter accepted a violation\n{out.stdout[-3000:]}"
    broken = [line for line in out.stdout.splitlines() if line.endswith(" BROKEN")]
    assert any(line.startswith(contract) for line in broken), out.stdout[-3000:]
