"""The engine must import and run without Qt: the GUI depends on it, never the reverse."""

from __future__ import annotations

import subprocess
import sys

BLOCK_QT = """
import builtins, sys
real_import = builtins.__import__
def guarded(name, *args, **kwargs):
    if name.split('.')[0] in ('PySide6', 'shiboken6'):
        raise ImportError('PySide6 is blocked in this test')
    return real_import(name, *args, **kwargs)
builtins.__import__ = guarded
import pkgutil, importlib, desktop_rag.engine as pkg
names = [m.name for m in pkgutil.walk_packages(pkg.__path__, 'desktop_rag.engine.')]
for name in names:
    importlib.import_module(name)
import desktop_rag.cli.commands, desktop_rag.cli.main
print(len(names))
"""


def test_engine_imports_with_pyside6_blocked():
    out = subprocess.run([sys.executable, "-c", BLOCK_QT], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip()) >= 10


def test_status_path_does_not_import_torch(tmp_path):
    code = (
        "import sys; from desktop_rag.cli.main import main; rc = main(['--data-dir', sys.argv[1], 'status', '--json']);"
        "assert 'torch' not in sys.modules and 'faiss' not in sys.modules, 'heavy import on the status path';"
        "raise SystemExit(rc)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
