"""Legacy Office files (.doc, .ppt, .xls): converted by LibreOffice where it is installed, else a clear message.

With `soffice` on PATH (or in LibreOffice's usual install folder), the file is copied into a private temporary
folder under a plain name (a name starting with "-" must not reach the command line), converted headless to
.docx/.pptx/.xlsx with a throw-away user profile (no clash with a LibreOffice the person has open) within
CONVERT_SECONDS, and the result is read by the loader of its new type. Without it, LoadError says which format
this is and how to convert it. No converter is bundled: the old binary formats are not parsed by the app itself.
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

CONVERT_SECONDS = 120
# suffix -> (LibreOffice filter target, the suffix of the result, the name of the format and of the app to save it
# from: the phrases "phrase.legacy<suffix>" and "phrase.legacy_app<suffix>")
FORMATS: dict[str, tuple[str, str]] = {".doc": ("docx", ".docx"), ".ppt": ("pptx", ".pptx"), ".xls": ("xlsx", ".xlsx")}
_USUAL = (
    "/Applications/LibreOffice.app/Contents/MacOS/soffice",
    r"C:\Program Files\LibreOffice\program\soffice.exe",
    r"C:\Program Files (x86)\LibreOffice\program\soffice.exe",
)


def find_soffice() -> str | None:
    """LibreOffice's command-line program, or None when it is not installed."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    return found or next((p for p in _USUAL if os.path.isfile(p)), None)


def no_converter_error(suffix: str) -> LoadError:
    """What a .doc/.ppt/.xls gets when LibreOffice is not installed: which app to save it from, as what."""
    return LoadError.coded("no_libreoffice", name=Phrase(f"phrase.legacy{suffix}"),
                           apps=Phrase(f"phrase.legacy_app{suffix}"), target=FORMATS[suffix][1])


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
                               stderr=subprocess.DEVNULL, start_new_session=posix)
    watchdog = _watchdog(process.pid, folder) if posix else None
    try:
        process.wait(timeout=CONVERT_SECONDS)
    except subprocess.TimeoutExpired:
        if posix:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        process.wait()
        raise LoadError.coded("libreoffice_timeout", seconds=CONVERT_SECONDS) from None
    finally:
        if watchdog is not None:
            watchdog.kill()
            watchdog.wait()
            watchdog.stdin.close()


def load_legacy_office(path: Path, context: LoadContext | None = None) -> ParsedDocument:
    """Convert a .doc/.ppt/.xls with LibreOffice and read the result; LoadError when it is not installed."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise LoadError.coded("type_not_supported", suffix=path.suffix)
    soffice = find_soffice()
    if soffice is None:
        raise no_converter_error(suffix)
    target, new_suffix = FORMATS[suffix]
    with tempfile.TemporaryDirectory(prefix="desktop-rag-convert-") as folder:
        source = Path(folder) / f"input{suffix}"
        shutil.copyfile(path, source)
        out = Path(folder) / "out"
        profile = (Path(folder) / "profile").as_uri()
        _run([soffice, f"-env:UserInstallation={profile}", "--headless", "--norestore", "--nologo",
              "--nolockcheck", "--convert-to", target, "--outdir", str(out), str(source)], folder)
        result = out / f"input{new_suffix}"
        if not result.is_file():
            raise LoadError.coded("libreoffice_failed", name=Phrase(f"phrase.legacy{suffix}"))
        return load(result, max_bytes=0, context=context)
