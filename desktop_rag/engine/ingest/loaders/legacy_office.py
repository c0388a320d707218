"""Legacy Office files (.doc, .ppt): converted by LibreOffice where it is installed, else a clear message. (.xls is
read by the spreadsheet reader itself: python-calamine reads BIFF.)

With `soffice` on PATH (or in LibreOffice's usual install folder), the file is copied into a private temporary
folder under a plain name (a name starting with "-" must not reach the command line), converted headless to
.docx/.pptx within CONVERT_SECONDS, and the result is read by the loader of its new type. The conversion fetches
nothing (`office_sandbox`): a throw-away profile whose settings block remote content (no clash with a LibreOffice
the person has open either), and on Linux no network at all. Without LibreOffice, LoadError says which format this
is and how to convert it; without the component that opens it (Writer for .doc, Impress for .ppt: Linux
distributions package them apart), it says which one is missing rather than blaming the file. No converter is
bundled: the old binary formats are not parsed by the app itself.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.ingest.loaders import LoadContext, load
from desktop_rag.engine.ingest.documents import ParsedDocument
from desktop_rag.engine.ingest.loaders.office_sandbox import environment, network_off, write_profile

CONVERT_SECONDS = 120
# suffix -> (LibreOffice's target and export filter: explicit, so an HTML page saved as .doc converts too; the suffix
# of the result; the component that opens it). Phrases "phrase.legacy<suffix>" and "phrase.legacy_app<suffix>" name
# the format and the apps that save it anew.
FORMATS: dict[str, tuple[str, str, str]] = {
    ".doc": ("docx:MS Word 2007 XML", ".docx", "Writer"),
    ".ppt": ("pptx:Impress MS PowerPoint 2007 XML", ".pptx", "Impress"),
}
COMPONENTS = ("Writer", "Calc", "Impress")
_USUAL = (
    "/Applications/LibreOffice.app/Contents/MacOS/soffice",
    r"C:\Program Files\LibreOffice\program\soffice.exe",
    r"C:\Program Files (x86)\LibreOffice\program\soffice.exe",
)


def find_soffice() -> str | None:
    """LibreOffice's command-line program, or None when it is not installed."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    return found or next((p for p in _USUAL if os.path.isfile(p)), None)


def installed_components(soffice: str) -> tuple[str, ...] | None:
    """The components of this LibreOffice (Writer, Calc, Impress) by the configuration each installs
    (share/registry/<name>.xcd beside program/, Resources/registry on macOS); None when the layout is unknown."""
    program = Path(os.path.realpath(soffice)).parent
    for registry in (program.parent / "share" / "registry", program.parent / "Resources" / "registry"):
        if (registry / "main.xcd").is_file():
            return tuple(c for c in COMPONENTS if (registry / f"{c.lower()}.xcd").is_file())
    return None


def no_converter_error(suffix: str) -> LoadError:
    """What a .doc/.ppt gets when LibreOffice is not installed: which app to save it from, as what."""
    return LoadError.coded("no_libreoffice", name=Phrase(f"phrase.legacy{suffix}"),
                           apps=Phrase(f"phrase.legacy_app{suffix}"), target=FORMATS[suffix][1])


def _check_component(soffice: str, suffix: str) -> None:
    """LoadError naming the missing component when this LibreOffice lacks the one that opens `suffix`."""
    present = installed_components(soffice)
    component = FORMATS[suffix][2]
    if present is not None and component not in present:
        raise LoadError.coded("libreoffice_component_missing", name=Phrase(f"phrase.legacy{suffix}"),
                              component=component, present=", ".join(present) or "-",
                              package=f"libreoffice-{component.lower()}", target=FORMATS[suffix][1],
                              apps=Phrase(f"phrase.legacy_app{suffix}"))


def _watchdog(group: int, folder: str) -> subprocess.Popen:
    """POSIX: a shell that waits until this process ends (its stdin reaches end of file then, also when the parser
    child is killed on its time limit or a cancel), then kills the converter's process group and removes the
    temporary folder: a conversion never outlives the reader. Killed unused when the conversion ends in time."""
    return subprocess.Popen(["/bin/sh", "-c", 'read -r _; kill -9 "-$1" 2>/dev/null; rm -rf -- "$2"',
                             "desktop-rag-watchdog", str(group), folder],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _run(command: list[str], folder: str) -> None:
    """Run the converter in its own process group; on timeout, or when this process dies, the group is killed."""
    posix = sys.platform != "win32"
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=posix, env=environment())
    watchdog = _watchdog(process.pid, folder) if posix else None
    try:
        process.wait(timeout=CONVERT_SECONDS)
    except subprocess.TimeoutExpired:
        _kill(process, posix)
        raise LoadError.coded("libreoffice_timeout", seconds=CONVERT_SECONDS) from None
    except BaseException:  # the reading was given up (an e-mail attachment's time budget): so is the conversion
        _kill(process, posix)
        raise
    finally:
        if watchdog is not None:
            watchdog.kill()
            watchdog.wait()
            watchdog.stdin.close()


def _kill(process: subprocess.Popen, posix: bool) -> None:
    if posix:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    else:
        process.kill()
    process.wait()


def load_legacy_office(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Convert a .doc/.ppt with LibreOffice and read the result; LoadError when it is not installed."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise LoadError.coded("type_not_supported", suffix=path.suffix)
    soffice = find_soffice()
    if soffice is None:
        raise no_converter_error(suffix)
    _check_component(soffice, suffix)
    target, new_suffix, _ = FORMATS[suffix]
    with tempfile.TemporaryDirectory(prefix="desktop-rag-convert-") as folder:
        source = Path(folder) / f"input{suffix}"
        shutil.copyfile(path, source)
        out = Path(folder) / "out"
        profile = write_profile(Path(folder) / "profile")
        _run([*network_off(), soffice, f"-env:UserInstallation={profile}", "--headless", "--norestore", "--nologo",
              "--nolockcheck", "--convert-to", target, "--outdir", str(out), str(source)], folder)
        result = out / f"input{new_suffix}"
        if not result.is_file():
            raise LoadError.coded("libreoffice_failed", name=Phrase(f"phrase.legacy{suffix}"))
        return load(result, max_bytes=0, context=context)
