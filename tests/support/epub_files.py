"""E-books built by hand for the EPUB reader's tests, its hostile-file tests, tests/support/doc_files.py and
bench/web_formats.py: a minimal valid EPUB 3 (with an EPUB 2 NCX too) of any chapters, and a book of a cover,
an English and a Chinese chapter."""

from __future__ import annotations

import zipfile
from pathlib import Path

CONTAINER = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
             '<rootfiles><rootfile full-path="{opf}" media-type="application/oebps-package+xml"/></rootfiles>'
             '</container>')


def xhtml(title: str, body: str, encoding: str = "utf-8") -> str:
    """A chapter's XHTML document: `title` and `body` as given (markup)."""
    return (f'<?xml version="1.0" encoding="{encoding}"?>\n<!DOCTYPE html>\n'
            f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
            f"<head><title>{title}</title></head><body>{body}</body></html>")


def write_epub(path: Path, chapters: list[tuple[str, str, str]], *, spine: list[str] | None = None,
               nav: bool = True, opf_dir: str = "OEBPS", extra: dict[str, bytes] | None = None,
               compression: int = zipfile.ZIP_DEFLATED) -> Path:
    """A minimal valid EPUB 3 (also with an EPUB 2 NCX): chapters are (file name, TOC label, XHTML)."""
    items = "".join(f'<item id="c{i}" href="text/{name}" media-type="application/xhtml+xml"/>'
                    for i, (name, _, _) in enumerate(chapters))
    items += '<item id="cover" href="images/cover.png" media-type="image/png"/>'
    items += '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
    if nav:
        items += '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
    refs = "".join(f'<itemref idref="{i}"/>' for i in (spine or [f"c{i}" for i in range(len(chapters))]))
    opf = ('<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
           'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">'
           'urn:uuid:1</dc:identifier><dc:title>Book</dc:title><dc:language>en</dc:language></metadata>'
           f'<manifest>{items}</manifest><spine toc="ncx">{refs}</spine></package>')
    links = "".join(f'<li><a href="text/{name}">{label}</a></li>' for name, label, _ in chapters if label)
    nav_doc = xhtml("Contents", f'<nav epub:type="toc"><h1>Contents</h1><ol>{links}</ol></nav>')
    points = "".join(f'<navPoint id="p{i}" playOrder="{i + 1}"><navLabel><text>{label} (NCX)</text></navLabel>'
                     f'<content src="text/{name}"/></navPoint>' for i, (name, label, _) in enumerate(chapters) if label)
    ncx = ('<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>'
           f"{points}</navMap></ncx>")
    top = f"{opf_dir}/" if opf_dir else ""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")  # stored, first, as the format asks
        zf.writestr("META-INF/container.xml", CONTAINER.format(opf=f"{top}content.opf"),
                    zipfile.ZIP_DEFLATED)
        zf.writestr(f"{top}content.opf", opf, zipfile.ZIP_DEFLATED)
        zf.writestr(f"{top}toc.ncx", ncx, zipfile.ZIP_DEFLATED)
        if nav:
            zf.writestr(f"{top}nav.xhtml", nav_doc, zipfile.ZIP_DEFLATED)
        zf.writestr(f"{top}images/cover.png", b"\x89PNG\r\n\x1a\n")
        for name, _, markup in chapters:
            data = markup if isinstance(markup, bytes) else markup.encode("utf-8")
            zf.writestr(f"{top}text/{name}", data, compression)
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return path


CHAPTERS = [
    ("cover.xhtml", "Cover", xhtml("Book", '<div><img src="../images/cover.png" alt=""/></div>')),
    ("ch1.xhtml", "Chapter 1: The Harbour", xhtml("Book", "<h1>The Harbour</h1><p>The fishing boats left the "
                                                   "harbour before dawn.</p><h2>Nets</h2><p>Nets were mended "
                                                   "on the quay.</p>")),
    ("ch2.xhtml", "第二章 山村", xhtml("Book", "<h1>山村</h1><p>山村里的人们每天清晨去茶园采茶。</p>")),
]
