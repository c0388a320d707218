"""One zip guard for every zip-based format (.docx, .pptx, .xlsx, .epub, .odt).

`open_zip` checks what the central directory declares (member count, each member's size and compression ratio,
the total unpacked) before a byte is inflated; `read_member` reads one member with a byte cap. Python's zipfile
never inflates a member past its declared size (a member that lies fails its CRC), so checking the declared sizes
bounds what any reader built on zipfile (python-docx, python-pptx, openpyxl) can unpack.
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase

RATIO_MIN_SIZE = 1 << 20  # the ratio is judged on members over 1 MiB (small XML parts compress 100:1 honestly)


def _mb(n_bytes: int) -> str:
    from desktop_rag.engine.ingest.loaders import format_mb

    return format_mb(n_bytes)


def _kind(path: Path) -> str:
    return path.suffix.lower() or "zip"


def open_zip(
    path: Path, *, max_members: int = 10_000, max_total_bytes: int = 1 << 30, max_ratio: float = 100,
    not_zip: str = "",
) -> zipfile.ZipFile:
    """Open `path` as a zip after checking its declared sizes; the caller closes it. Raises LoadError.

    `not_zip` is the error code for a file that is no zip at all (a format's own advice, e.g. an old .doc renamed).
    """
    kind = _kind(Path(path))
    try:
        zf = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise (LoadError.coded(not_zip) if not_zip else LoadError.coded("zip_damaged", kind=kind)) from exc
    try:
        _check(zf, Path(path), kind, max_members, max_total_bytes, max_ratio)
    except BaseException:
        zf.close()
        raise
    return zf


def _check(zf: zipfile.ZipFile, path: Path, kind: str, max_members: int, max_total: int, max_ratio: float) -> None:
    infos = zf.infolist()
    if len(infos) > max_members:
        raise LoadError.coded("zip_too_many_parts", kind=kind, n=len(infos), limit=max_members)
    total = sum(i.file_size for i in infos)
    if any(i.file_size > RATIO_MIN_SIZE and i.file_size > max_ratio * max(i.compress_size, 1) for i in infos):
        raise LoadError.coded("zip_bomb", kind=kind, mb=_mb(total), kb=f"{path.stat().st_size / 1024:,.0f}")
    if total > max_total:
        raise LoadError.coded("zip_too_large", kind=kind, mb=_mb(total), limit=_mb(max_total))


def read_member(zf: zipfile.ZipFile, name: str, max_bytes: int) -> bytes:
    """The bytes of member `name`, at most `max_bytes` (LoadError past it, or when it is missing or damaged)."""
    try:
        with zf.open(name) as member:
            data = member.read(max_bytes + 1)
    except KeyError as exc:
        raise LoadError.coded("part_missing", name=name) from exc
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError) as exc:
        raise LoadError.coded("part_damaged", name=name) from exc
    if len(data) > max_bytes:
        raise LoadError.coded("part_too_large", name=name, limit=_mb(max_bytes))
    return data


def check_office_package(path: Path, *, kind: str, what: Phrase, main_part: str, not_zip: str, max_total: int,
                         max_xml: int) -> None:
    """Raise LoadError unless `path` passes the zip guard, its XML parts stay under `max_xml` unpacked and it holds
    `main_part` (an Office package: .docx, .pptx). `kind` (".docx") and `what` ("Word document") name it."""
    with open_zip(path, max_total_bytes=max_total, not_zip=not_zip) as zf:
        infos = zf.infolist()
    xml = sum(i.file_size for i in infos if i.filename.lower().endswith((".xml", ".rels")))
    if xml > max_xml:
        raise LoadError.coded("office_xml_too_large", kind=kind, mb=_mb(xml), limit=_mb(max_xml))
    if main_part not in {i.filename for i in infos}:
        raise LoadError.coded("zip_not_office", what=what, part=main_part)
