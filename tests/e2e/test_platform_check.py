"""Before the window: a missing system library of Qt's display plugin gives a human message with the packages.

The loader's answer is made deterministic with a stand-in for `ldd` (DESKTOP_RAG_LDD): it runs the real
`ldd` on the real PySide6 plugin, forgets whatever this machine really lacks, and reports the libraries a
test names as `not found`. Everything after that is the app's real path: a child process started like the
user's `desktop-rag`, the check before PySide6 loads, the message, the exit code.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag import platform_check as pc
from tests.support import REPO
from tests.support.hash_cli import environment, use_locale

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None,
                                reason="the display-plugin check is for Linux (needs ldd)")
QT_MESSAGE = "could not load the qt platform plugin"


def fake_ldd(tmp_path: Path, missing: list[str]) -> Path:
    """A real `ldd` whose output says `not found` for exactly the libraries in `missing`."""
    script = tmp_path / "ldd"
    edits = "".join(f" -e 's|^\\(\\s*{lib.replace('.', '[.]')}\\) => .*$|\\1 => not found|'" for lib in missing)
    forget = "-e 's|=> not found|=> /resolved/by/the/test (0x0)|'"  # what this machine really lacks
    script.write_text(f"#!/bin/sh\nldd \"$@\" | sed {forget}{edits}\n", encoding="utf-8")
    script.chmod(0o755)
    return script


def app_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "DISPLAY",
                        "DESKTOP_RAG_SKIP_PLATFORM_CHECK", "DESKTOP_RAG_QT_PLUGINS")}
    env.update(DESKTOP_RAG_HOME=str(tmp_path / "home"), **extra)
    return env


def run_app(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120, cwd=REPO)


def expected_package(soname: str) -> str:
    packages, _ = pc.packages_for([soname], pc.detect_family())
    return packages[0] if packages else soname


def test_missing_xcb_libraries_name_the_packages_and_the_command(tmp_path: Path) -> None:
    ldd = fake_ldd(tmp_path, ["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"])
    env = app_env(tmp_path, DISPLAY=":99", DESKTOP_RAG_LDD=str(ldd))
    done = run_app([sys.executable, "-m", "desktop_rag"], env)
    assert done.returncode == 1, done.stderr
    err = done.stderr
    assert "The window cannot open" in err and "X11 (xcb)" in err
    listed = err.splitlines()[1].strip().split(", ")  # the libraries, in the loader's order
    assert sorted(listed) == ["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"]
    assert expected_package("libxcb-cursor.so.0") in err and expected_package("libxkbcommon-x11.so.0") in err
    if pc.detect_family() == "apt":
        command = next(line.strip() for line in err.splitlines() if "apt install" in line)
        assert sorted(command.split()[-2:]) == ["libxcb-cursor0", "libxkbcommon-x11-0"]
    assert QT_MESSAGE not in err.lower()  # stopped before Qt tried


def test_the_bundle_launcher_runs_the_same_check(tmp_path: Path) -> None:
    ldd = fake_ldd(tmp_path, ["libxcb-icccm.so.4"])
    env = app_env(tmp_path, DISPLAY=":99", DESKTOP_RAG_LDD=str(ldd), PYTHONPATH=str(REPO))
    done = run_app([sys.executable, str(REPO / "packaging" / "launcher.py")], env)
    assert done.returncode == 1 and "libxcb-icccm.so.4" in done.stderr
    assert expected_package("libxcb-icccm.so.4") in done.stderr and QT_MESSAGE not in done.stderr.lower()


def test_the_bundle_checks_its_own_copy_of_the_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a PyInstaller bundle the plugins are under sys._MEIPASS/PySide6/Qt, with Qt's libraries beside them."""
    real = pc.plugins_dir()
    assert real is not None
    bundle = tmp_path / "bundle"
    (bundle / "PySide6" / "Qt" / "plugins" / "platforms").mkdir(parents=True)
    (bundle / "PySide6" / "Qt" / "lib").symlink_to(real.parent / "lib")
    monkeypatch.delenv("DESKTOP_RAG_QT_PLUGINS", raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert pc.plugins_dir() == bundle / "PySide6" / "Qt" / "plugins"
    env = {"DISPLAY": ":99", "DESKTOP_RAG_LDD": str(fake_ldd(tmp_path, ["libxcb-cursor.so.0"]))}
    assert pc.prepare_qt_platform(dict(env)) is None  # no xcb plugin in this bundle: nothing to tell, Qt will
    shutil.copy2(real / "platforms" / "libqxcb.so", bundle / "PySide6" / "Qt" / "plugins" / "platforms")
    message = pc.prepare_qt_platform(dict(env))
    assert message and "libxcb-cursor.so.0" in message and expected_package("libxcb-cursor.so.0") in message


def test_all_libraries_present_lets_the_window_open(tmp_path: Path) -> None:
    env = {"DISPLAY": ":99", "DESKTOP_RAG_LDD": str(fake_ldd(tmp_path, []))}
    assert pc.prepare_qt_platform(env) is None and "QT_QPA_PLATFORM" not in env


def test_wayland_session_uses_xwayland_when_the_wayland_plugin_cannot_load(tmp_path: Path) -> None:
    env = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "DESKTOP_RAG_LDD": str(fake_ldd(tmp_path, ["libwayland-cursor.so.0"]))}
    assert pc.prepare_qt_platform(env) is None
    assert env["QT_QPA_PLATFORM"] == "xcb"


def test_wayland_session_with_a_working_wayland_plugin_stays_native(tmp_path: Path) -> None:
    assert pc.plugin_file("wayland") is not None, "PySide6-Essentials ships Qt's wayland plugin"
    env = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "DESKTOP_RAG_LDD": str(fake_ldd(tmp_path, []))}
    assert pc.prepare_qt_platform(env) is None and "QT_QPA_PLATFORM" not in env


def test_wayland_only_session_names_the_wayland_packages(tmp_path: Path) -> None:
    env = {"WAYLAND_DISPLAY": "wayland-0", "DESKTOP_RAG_LDD": str(fake_ldd(tmp_path, ["libwayland-cursor.so.0"]))}
    message = pc.prepare_qt_platform(env)
    assert message and "Wayland" in message and expected_package("libwayland-cursor.so.0") in message


def test_a_platform_without_its_own_plugin_file_is_left_to_qt(tmp_path: Path) -> None:
    env = {"QT_QPA_PLATFORM": "wayland-egl", "DESKTOP_RAG_LDD": str(fake_ldd(tmp_path, ["libwayland-egl.so.1"]))}
    assert pc.prepare_qt_platform(env) is None  # Qt lists it, but it lives inside the wayland plugin


def test_offscreen_needs_no_display_libraries() -> None:
    """The real loader, no stand-in: the test suite's own platform loads on this machine."""
    assert pc.prepare_qt_platform({"QT_QPA_PLATFORM": "offscreen"}) is None


def test_install_script_asks_for_the_packages(tmp_path: Path) -> None:
    env = app_env(tmp_path, DESKTOP_RAG_LDD=str(fake_ldd(tmp_path, ["libxcb-keysyms.so.1"])))
    done = run_app([sys.executable, "-m", "desktop_rag.platform_check", "--packages"], env)
    assert done.returncode == 0 and done.stdout.split() == [expected_package("libxcb-keysyms.so.1")]
    env["DESKTOP_RAG_LDD"] = str(fake_ldd(tmp_path, []))
    done = run_app([sys.executable, "-m", "desktop_rag.platform_check", "--packages"], env)
    assert done.stdout.strip() == ""


UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n'
FEDORA = 'NAME="Fedora Linux"\nID=fedora\nVERSION_ID=40\n'
ARCH = 'NAME="Arch Linux"\nID=arch\n'
SUSE = 'NAME="openSUSE Tumbleweed"\nID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n'
MINT = 'NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n'


@pytest.mark.parametrize(("os_release", "family", "command"), [
    (UBUNTU, "apt", "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"),
    (MINT, "apt", "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"),
    (FEDORA, "dnf", "sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms"),
    (ARCH, "pacman", "sudo pacman -S --needed xcb-util-cursor xcb-util-wm xcb-util-keysyms"),
    (SUSE, "zypper", "sudo zypper install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"),
])
def test_each_distribution_gets_its_own_package_names(os_release: str, family: str, command: str) -> None:
    assert pc.family_of(os_release) == family
    status = pc.PluginStatus("xcb", Path("/x/libqxcb.so"), ("libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"))
    message = pc.missing_message(status, family, root=False)
    assert command in message and "libxcb-cursor.so.0, libxcb-icccm.so.4, libxcb-keysyms.so.1" in message
    assert command.removeprefix("sudo ") in pc.missing_message(status, family, root=True)
    assert "sudo" not in pc.missing_message(status, family, root=True)


def test_an_unknown_library_or_distribution_still_gets_a_useful_message() -> None:
    status = pc.PluginStatus("xcb", Path("/x/libqxcb.so"), ("libxcb-cursor.so.0", "libfancy.so.3"))
    apt = pc.missing_message(status, "apt", root=False)
    assert "sudo apt install libxcb-cursor0" in apt and "apt-file search libfancy.so.3" in apt
    assert "'libfancy.so.3()(64bit)'" in pc.missing_message(status, "dnf", root=False)
    unknown = pc.missing_message(status, None, root=False)
    assert "libxcb-cursor.so.0, libfancy.so.3" in unknown and "package manager" in unknown


def test_a_broken_qt_install_is_not_blamed_on_the_system() -> None:
    status = pc.PluginStatus("xcb", Path("/x/libqxcb.so"), ("libQt6XcbQpa.so.6",))
    message = pc.missing_message(status, "apt", root=False)
    assert "incomplete" in message and "libQt6XcbQpa.so.6" in message and "apt install" not in message


def test_parse_ldd_reads_only_unresolved_libraries() -> None:
    output = ("\tlinux-vdso.so.1 (0x00007ffd)\n\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x1)\n"
              "\tlibxcb-icccm.so.4 => not found\n\tlibxcb-keysyms.so.1 => not found\n\tlibxcb-icccm.so.4 => not found\n")
    assert pc.parse_ldd(output) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


@pytest.mark.parametrize("lang, lines", [
    ("zh_CN.UTF-8", ("窗口无法打开：Qt 的 X11 (xcb) 显示插件需要的系统库在这台电脑上缺失：", "用以下命令安装：",
                     "然后重新启动 Desktop RAG。没有窗口时，`desktop-rag demo` 和其他命令仍然可用。",
                     "请用系统的软件包管理器安装提供 libfancy.so.3 的软件包（可用以下命令查找：apt-file search "
                     "libfancy.so.3）。")),
    ("en_US.UTF-8", ("The window cannot open: Qt's X11 (xcb) display plugin needs system libraries that are missing on "
                     "this computer:", "Install them with:",
                     "Then start Desktop RAG again. Without a window, `desktop-rag demo` and the other commands still "
                     "work.",
                     "Install the package that provides libfancy.so.3 with your system's package manager (find it "
                     "with: apt-file search libfancy.so.3).")),
])
def test_the_message_is_in_the_locales_language(tmp_path: Path, monkeypatch, lang: str, lines: tuple[str, ...]) -> None:
    """It was English under LANG=zh_CN.UTF-8; the libraries, packages and the command stay as they are."""
    ldd = fake_ldd(tmp_path, ["libxcb-cursor.so.0"])
    env = environment(lang, app_env(tmp_path, DISPLAY=":99", DESKTOP_RAG_LDD=str(ldd)))
    done = run_app([sys.executable, "-m", "desktop_rag"], env)
    said = done.stderr.splitlines()
    assert done.returncode == 1 and said[0] == lines[0] and said[1] == "  libxcb-cursor.so.0", done.stderr
    assert said[-1] == lines[2], done.stderr
    if pc.detect_family() == "apt":
        assert said[2] == lines[1], done.stderr
    use_locale(monkeypatch, lang)  # a library no table knows: the package manager's own search
    unknown = pc.missing_message(pc.PluginStatus("xcb", Path("libqxcb.so"), ("libfancy.so.3",)), "apt", root=False)
    assert lines[3] in unknown.splitlines(), unknown


@pytest.mark.parametrize("lang, said, error", [
    ("zh_CN.UTF-8", ("用法：python -m desktop_rag.platform_check [-h] [--packages] [--quiet]",
                     "检查 Qt 的显示插件能否在这台 Linux 电脑上加载。", "选项:", "  -h, --help  显示此帮助信息并退出",
                     "  --packages  只列出需要安装的软件包（可能没有）", "  --quiet     一切就绪时不输出任何内容"),
     "python -m desktop_rag.platform_check：错误：无法识别的参数：--bad"),
    ("en_US.UTF-8", ("usage: python -m desktop_rag.platform_check [-h] [--packages] [--quiet]",
                     "Check that Qt's display plugin can load on this Linux system.", "options:",
                     "  -h, --help  show this help message and exit",
                     "  --packages  print only the packages to install (may be none)",
                     "  --quiet     print nothing when everything is in place"),
     "python -m desktop_rag.platform_check: error: unrecognized arguments: --bad"),
])
def test_its_own_help_and_usage_errors_follow_the_locale(tmp_path: Path, lang: str, said, error: str) -> None:
    """scripts/install.sh's `python -m desktop_rag.platform_check`: its help (headings, description, options) and a
    usage error are in the locale's language, as the command line's are; the options' names stay."""
    env = environment(lang, app_env(tmp_path), COLUMNS="120")
    shown = run_app([sys.executable, "-m", "desktop_rag.platform_check", "-h"], env)
    assert shown.returncode == 0 and shown.stdout.splitlines() == [said[0], "", said[1], "", *said[2:]], shown.stdout
    wrong = run_app([sys.executable, "-m", "desktop_rag.platform_check", "--bad"], env)
    assert wrong.returncode == 2 and wrong.stderr.splitlines() == [said[0], error], wrong.stderr
