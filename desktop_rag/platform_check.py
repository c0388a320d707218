"""Before a window opens on Linux: can Qt's display plugin load? If not, name the missing system libraries.

Qt's own message for a plugin whose libraries are missing ("could not load the Qt platform plugin "xcb"
... even though it was found") names neither the library nor the package. This module runs `ldd` on the
plugin (xcb for X11 and XWayland, wayland for a native Wayland session), maps each unresolved library to
the package of the detected distribution (apt, dnf, pacman, zypper) and words one command to install them.
It never imports Qt, so the CLI can decide before PySide6 is loaded; the bundle runs the same check.

Wayland: PySide6-Essentials ships Qt's wayland plugin. On a Wayland session the app uses it when its
libraries are present (Qt's own order: wayland, then xcb); otherwise, when XWayland is there (DISPLAY
set) and the xcb plugin loads, QT_QPA_PLATFORM=xcb is set so Qt goes straight to XWayland.

Overrides (tests, odd systems): DESKTOP_RAG_QT_PLUGINS = the Qt plugins folder to check,
DESKTOP_RAG_LDD = the program that lists a library's dependencies (default `ldd`),
DESKTOP_RAG_SKIP_PLATFORM_CHECK=1 = skip the check.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.parser_words import Parser, said_by_argparse
from desktop_rag.wording import locale_language, worded

log = logging.getLogger(__name__)

PLUGIN_FILES = {"xcb": ["libqxcb.so"], "wayland": ["libqwayland.so", "libqwayland-generic.so"]}
NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found\s*$")
HUMAN_NAMES = {"xcb": "X11 (xcb)", "wayland": "Wayland"}
QT_OWN = re.compile(r"^lib(Qt6|pyside6|shiboken6)", re.IGNORECASE)

# soname (without the version) -> package per family: apt (Debian, Ubuntu), dnf (Fedora, RHEL), pacman (Arch),
# zypper (openSUSE). The libraries Qt's xcb and wayland plugins (and Qt itself) load from the system.
_PACKAGES: dict[str, tuple[str, str, str, str]] = {
    "libxcb-cursor": ("libxcb-cursor0", "xcb-util-cursor", "xcb-util-cursor", "libxcb-cursor0"),
    "libxcb-icccm": ("libxcb-icccm4", "xcb-util-wm", "xcb-util-wm", "libxcb-icccm4"),
    "libxcb-keysyms": ("libxcb-keysyms1", "xcb-util-keysyms", "xcb-util-keysyms", "libxcb-keysyms1"),
    "libxcb-image": ("libxcb-image0", "xcb-util-image", "xcb-util-image", "libxcb-image0"),
    "libxcb-render-util": ("libxcb-render-util0", "xcb-util-renderutil", "xcb-util-renderutil",
                           "libxcb-render-util0"),
    "libxcb-util": ("libxcb-util1", "xcb-util", "xcb-util", "libxcb-util1"),
    "libxcb-randr": ("libxcb-randr0", "libxcb", "libxcb", "libxcb-randr0"),
    "libxcb-render": ("libxcb-render0", "libxcb", "libxcb", "libxcb-render0"),
    "libxcb-shape": ("libxcb-shape0", "libxcb", "libxcb", "libxcb-shape0"),
    "libxcb-shm": ("libxcb-shm0", "libxcb", "libxcb", "libxcb-shm0"),
    "libxcb-sync": ("libxcb-sync1", "libxcb", "libxcb", "libxcb-sync1"),
    "libxcb-xfixes": ("libxcb-xfixes0", "libxcb", "libxcb", "libxcb-xfixes0"),
    "libxcb-xkb": ("libxcb-xkb1", "libxcb", "libxcb", "libxcb-xkb1"),
    "libxcb-xinput": ("libxcb-xinput0", "libxcb", "libxcb", "libxcb-xinput0"),
    "libxcb-glx": ("libxcb-glx0", "libxcb", "libxcb", "libxcb-glx0"),
    "libxcb": ("libxcb1", "libxcb", "libxcb", "libxcb1"),
    "libX11-xcb": ("libx11-xcb1", "libX11-xcb", "libx11", "libX11-xcb1"),
    "libX11": ("libx11-6", "libX11", "libx11", "libX11-6"),
    "libxkbcommon-x11": ("libxkbcommon-x11-0", "libxkbcommon-x11", "libxkbcommon-x11", "libxkbcommon-x11-0"),
    "libxkbcommon": ("libxkbcommon0", "libxkbcommon", "libxkbcommon", "libxkbcommon0"),
    "libSM": ("libsm6", "libSM", "libsm", "libSM6"),
    "libICE": ("libice6", "libICE", "libice", "libICE6"),
    "libGL": ("libgl1", "libglvnd-glx", "libglvnd", "libGL1"),
    "libGLX": ("libglx0", "libglvnd-glx", "libglvnd", "libGLX0"),
    "libEGL": ("libegl1", "libglvnd-egl", "libglvnd", "libEGL1"),
    "libOpenGL": ("libopengl0", "libglvnd-opengl", "libglvnd", "libOpenGL0"),
    "libfontconfig": ("libfontconfig1", "fontconfig", "fontconfig", "libfontconfig1"),
    "libfreetype": ("libfreetype6", "freetype", "freetype2", "libfreetype6"),
    "libdbus-1": ("libdbus-1-3", "dbus-libs", "dbus", "libdbus-1-3"),
    "libglib-2.0": ("libglib2.0-0", "glib2", "glib2", "libglib-2_0-0"),
    "libgthread-2.0": ("libglib2.0-0", "glib2", "glib2", "libgthread-2_0-0"),
    "libwayland-client": ("libwayland-client0", "libwayland-client", "wayland", "libwayland-client0"),
    "libwayland-cursor": ("libwayland-cursor0", "libwayland-cursor", "wayland", "libwayland-cursor0"),
    "libwayland-egl": ("libwayland-egl1", "libwayland-egl", "wayland", "libwayland-egl1"),
}
FAMILIES = ("apt", "dnf", "pacman", "zypper")
_INSTALL = {"apt": "apt install", "dnf": "dnf install", "pacman": "pacman -S --needed", "zypper": "zypper install"}
_FIND = {"apt": "apt-file search {lib}", "pacman": "pacman -F {lib}"}  # dnf and zypper install a soname directly

# What a person reads, in English and Chinese (said in the locale's language: `missing_message`, `main`)
TEXTS: dict[str, dict[str, str]] = {
    "own_incomplete": {"en": "The window cannot open: the app's own copy of Qt is incomplete ({libraries} is missing). "
                             "Reinstall it (scripts/install.sh, or unpack the bundle again).",
                       "zh": "窗口无法打开：应用自带的 Qt 不完整（缺少 {libraries}）。请重新安装（运行 scripts/install.sh，"
                             "或重新解压安装包）。"},
    "missing": {"en": "The window cannot open: Qt's {name} display plugin needs system libraries that are missing on "
                      "this computer:",
                "zh": "窗口无法打开：Qt 的 {name} 显示插件需要的系统库在这台电脑上缺失："},
    "install_with": {"en": "Install them with:", "zh": "用以下命令安装："},
    "install_unknown": {"en": "Install the package that provides {libraries} with your system's package manager{find}.",
                        "zh": "请用系统的软件包管理器安装提供 {libraries} 的软件包{find}。"},
    "find": {"en": " (find it with: {hints})", "zh": "（可用以下命令查找：{hints}）"},
    "again": {"en": "Then start Desktop RAG again. Without a window, `desktop-rag demo` and the other commands still "
                    "work.",
              "zh": "然后重新启动 Desktop RAG。没有窗口时，`desktop-rag demo` 和其他命令仍然可用。"},
    "all_found": {"en": "Qt display plugins {platforms}: every system library was found.",
                  "zh": "Qt 显示插件 {platforms}：所需的系统库都已找到。"},
    # its own command's help (`main`); argparse %-formats them, so a "%" is written "%%"
    "help.description": {"en": "Check that Qt's display plugin can load on this Linux system.",
                         "zh": "检查 Qt 的显示插件能否在这台 Linux 电脑上加载。"},
    "help.packages": {"en": "print only the packages to install (may be none)",
                      "zh": "只列出需要安装的软件包（可能没有）"},
    "help.quiet": {"en": "print nothing when everything is in place", "zh": "一切就绪时不输出任何内容"},
}


@dataclass(frozen=True)
class PluginStatus:
    """One Qt platform plugin: its file and the libraries the loader cannot find for it."""

    platform: str
    plugin: Path
    missing: tuple[str, ...] = ()

    @property
    def loads(self) -> bool:
        return not self.missing


def family_of(os_release: str) -> str | None:
    """The package tool of a distribution, from the text of /etc/os-release (ID and ID_LIKE)."""
    ids: list[str] = []
    for line in os_release.splitlines():
        key, _, value = line.partition("=")
        if key.strip() in ("ID", "ID_LIKE"):
            ids += value.strip().strip("\"'").lower().split()
    for ident in ids:  # ID first, then ID_LIKE in its order
        if ident in ("debian", "ubuntu", "linuxmint", "pop", "raspbian", "elementary", "kali", "zorin"):
            return "apt"
        if ident in ("fedora", "rhel", "centos", "rocky", "almalinux", "ol", "amzn"):
            return "dnf"
        if ident in ("arch", "manjaro", "endeavouros", "garuda", "artix"):
            return "pacman"
        if ident.startswith(("opensuse", "suse", "sles")):
            return "zypper"
    return None


def detect_family(os_release_path: Path = Path("/etc/os-release")) -> str | None:
    try:
        return family_of(os_release_path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


def parse_ldd(output: str) -> list[str]:
    """The sonames `ldd` reports as `not found`, each once, in order."""
    found: list[str] = []
    for line in output.splitlines():
        match = NOT_FOUND.match(line)
        if match and match.group(1) not in found:
            found.append(match.group(1))
    return found


def _stem(soname: str) -> str:
    return soname.split(".so", 1)[0]


def packages_for(sonames: Sequence[str], family: str | None) -> tuple[list[str], list[str]]:
    """(packages that provide the libraries, libraries with no known package) for a package family."""
    packages: list[str] = []
    unknown: list[str] = []
    for soname in sonames:
        names = _PACKAGES.get(_stem(soname))
        if family in FAMILIES and names:
            package = names[FAMILIES.index(family)]
        elif family in ("dnf", "zypper"):
            package = f"'{soname}()(64bit)'"  # both install a library by the name it provides
        else:
            unknown.append(soname)
            continue
        if package not in packages:
            packages.append(package)
    return packages, unknown


def install_command(family: str | None, packages: Sequence[str], root: bool) -> str | None:
    if family not in _INSTALL or not packages:
        return None
    return ("" if root else "sudo ") + _INSTALL[family] + " " + " ".join(packages)


def plugins_dir(env: Mapping[str, str] = os.environ) -> Path | None:
    """Qt's plugins folder: the override, the bundle's copy, or the installed PySide6 (found, not imported)."""
    if env.get("DESKTOP_RAG_QT_PLUGINS"):
        return Path(env["DESKTOP_RAG_QT_PLUGINS"])
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle and (Path(bundle) / "PySide6" / "Qt" / "plugins").is_dir():
        return Path(bundle) / "PySide6" / "Qt" / "plugins"
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "Qt" / "plugins"


def plugin_file(platform: str, env: Mapping[str, str] = os.environ) -> Path | None:
    base = plugins_dir(env)
    if base is None:
        return None
    for name in PLUGIN_FILES.get(platform, [f"libq{platform}.so"]):
        if (base / "platforms" / name).is_file():
            return base / "platforms" / name
    return None


def unresolved_libraries(plugin: Path, env: Mapping[str, str] = os.environ) -> list[str] | None:
    """The libraries the dynamic loader cannot find for `plugin`; None when that cannot be told (no ldd)."""
    ldd = env.get("DESKTOP_RAG_LDD") or shutil.which("ldd") or ("/usr/bin/ldd" if Path("/usr/bin/ldd").exists() else None)
    if ldd is None:
        return None
    child_env = dict(env)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # the bundle's own copies of libraries come first, as they do for the app
        child_env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (bundle, env.get("LD_LIBRARY_PATH", "")) if p)
    try:
        done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, errors="replace",
                              env=child_env, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        log.info("platform check: %s could not run: %s", ldd, exc)
        return None
    return parse_ldd(done.stdout + "\n" + done.stderr)


def check_plugin(platform: str, env: Mapping[str, str] = os.environ) -> PluginStatus | None:
    """The status of one platform plugin; None when it cannot be told (no such plugin file, no ldd): Qt will say."""
    plugin = plugin_file(platform, env)
    if plugin is None:
        return None
    missing = unresolved_libraries(plugin, env)
    return None if missing is None else PluginStatus(platform, plugin, tuple(missing))


def candidate_platforms(env: Mapping[str, str]) -> list[str]:
    """The plugins Qt will try, in its order: QT_QPA_PLATFORM if set, else wayland (session) then xcb."""
    requested = env.get("QT_QPA_PLATFORM", "").strip()
    if requested:
        return [part.split(":", 1)[0].strip() for part in requested.split(";") if part.strip()]
    names = []
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE", "").lower() == "wayland":
        names.append("wayland")
    if env.get("DISPLAY"):
        names.append("xcb")
    return names


def _said(key: str, /, **values: object) -> str:
    """The text `key` of TEXTS in the locale's language (LANG=zh_CN.UTF-8: Chinese), with `values` filled in."""
    return worded(TEXTS[key], locale_language(), **values)


def missing_message(status: PluginStatus, family: str | None, root: bool) -> str:
    """What the user reads instead of Qt's message: the libraries, the packages, the one command."""
    system = [s for s in status.missing if not QT_OWN.match(s)]
    own = [s for s in status.missing if QT_OWN.match(s)]
    if own and not system:
        return _said("own_incomplete", libraries=", ".join(own))
    packages, unknown = packages_for(system, family)
    name = HUMAN_NAMES.get(status.platform, repr(status.platform))
    lines = [_said("missing", name=name), "  " + ", ".join(system)]
    command = install_command(family, packages, root)
    if command:
        lines += [_said("install_with"), "  " + command]
    if unknown:
        finder = _FIND.get(family or "")
        hints = "; ".join(finder.format(lib=lib) for lib in unknown) if finder else ""
        found = _said("find", hints=hints) if hints else ""
        lines.append(_said("install_unknown", libraries=", ".join(unknown), find=found))
    lines.append(_said("again"))
    return "\n".join(lines)


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def prepare_qt_platform(env: MutableMapping[str, str] = os.environ) -> str | None:
    """Check the display plugin Qt will use; None when it can load (maybe choosing XWayland), else the message.

    On a Wayland session whose wayland plugin cannot load while the xcb one can, sets QT_QPA_PLATFORM=xcb.
    """
    if not sys.platform.startswith("linux") or env.get("DESKTOP_RAG_SKIP_PLATFORM_CHECK"):
        return None
    candidates = candidate_platforms(env)
    statuses: list[PluginStatus] = []
    for platform in candidates:
        status = check_plugin(platform, env)
        if status is None:
            continue  # cannot tell (no such plugin file, no ldd): Qt tries it and says what is wrong
        if status.loads:
            if platform != candidates[0]:
                env["QT_QPA_PLATFORM"] = platform
                log.info("Qt platform: %s (%s cannot load: %s)", platform, candidates[0],
                         ", ".join(lib for s in statuses for lib in s.missing) or "no plugin")
            return None
        statuses.append(status)
    if not statuses:
        return None
    family = detect_family()
    best = min(statuses, key=lambda s: len(packages_for(s.missing, family)[0]) + len(s.missing))
    return missing_message(best, family, _is_root())


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m desktop_rag.platform_check [--packages|--quiet]`, used by scripts/install.sh; its help and usage
    errors in the locale's language, as the command line's (`parser_words`)."""
    with said_by_argparse(locale_language()):
        parser = Parser(prog="python -m desktop_rag.platform_check", description=_said("help.description"))
        parser.add_argument("--packages", action="store_true", help=_said("help.packages"))
        parser.add_argument("--quiet", action="store_true", help=_said("help.quiet"))
        args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        return 0
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    platforms = candidate_platforms(env) or ["xcb"]
    if "xcb" not in platforms:
        platforms.append("xcb")  # X11 and XWayland: the plugin every Linux desktop can use
    statuses = [s for s in (check_plugin(p, env) for p in platforms) if s is not None]
    if args.packages:
        family = detect_family()
        wanted = [lib for s in statuses for lib in s.missing if not QT_OWN.match(lib)]
        print(" ".join(packages_for(wanted, family)[0]))
        return 0
    broken = [s for s in statuses if not s.loads]
    for status in broken:
        print(missing_message(status, detect_family(), _is_root()), file=sys.stderr)
    if not broken and not args.quiet:
        print(_said("all_found", platforms=", ".join(s.platform for s in statuses)))
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
