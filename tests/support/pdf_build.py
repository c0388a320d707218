"""Hand-built PDFs with known text (tests, bench/pdf_extraction.py): standard and CJK fonts, embedded or not.

Each builder returns the bytes of a PDF whose pages show the given lines. The fonts cover how real files carry
text: a standard Type 1 font (WinAnsi), a CJK font that is not embedded and is addressed through one of
Adobe's predefined CMaps (GBK-EUC-H, UniGB-UCS2-H, 90ms-RKSJ-H, UniJIS-UCS2-H, ...), and an embedded TrueType
font addressed by glyph id (Identity-H) with or without a ToUnicode map (without one, the text layer is
garbage to every extractor while the page still renders right).
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

PAGE_W, PAGE_H = 595, 842  # A4 in points
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DROID = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"  # Debian fonts-droid-fallback: one TTF, CJK


@dataclass(frozen=True)
class Predefined:
    """A non-embedded CJK font through an Adobe predefined CMap: how to encode text for it."""

    cmap: str  # /Encoding
    codec: str  # Python codec writing the CMap's bytes
    registry_ordering: str  # Adobe-GB1, Adobe-Japan1, Adobe-Korea1, Adobe-CNS1
    base_font: str  # one of the Adobe CJK fonts every viewer substitutes


GBK_EUC_H = Predefined("GBK-EUC-H", "gbk", "GB1", "STSong-Light")
UNIGB_UCS2_H = Predefined("UniGB-UCS2-H", "utf-16-be", "GB1", "STSong-Light")
GB_EUC_H = Predefined("GB-EUC-H", "gb2312", "GB1", "STSong-Light")
RKSJ_H = Predefined("90ms-RKSJ-H", "cp932", "Japan1", "KozMinPro-Regular")
UNIJIS_UCS2_H = Predefined("UniJIS-UCS2-H", "utf-16-be", "Japan1", "KozMinPro-Regular")
UHC_H = Predefined("KSCms-UHC-H", "cp949", "Korea1", "HYSMyeongJo-Medium")
GBKP_EUC_H = Predefined("GBKp-EUC-H", "gbk", "GB1", "STSong-Light")  # pypdf 7: "not implemented"
UNIGB_UTF16_H = Predefined("UniGB-UTF16-H", "utf-16-be", "GB1", "STSong-Light")
RKSJP_H = Predefined("90msp-RKSJ-H", "cp932", "Japan1", "KozMinPro-Regular")
EUC_H = Predefined("EUC-H", "euc_jp", "Japan1", "KozMinPro-Regular")
ETEN_B5_H = Predefined("ETen-B5-H", "cp950", "CNS1", "MSungStd-Light")
UNICNS_UCS2_H = Predefined("UniCNS-UCS2-H", "utf-16-be", "CNS1", "MSungStd-Light")
UNIKS_UCS2_H = Predefined("UniKS-UCS2-H", "utf-16-be", "Korea1", "HYSMyeongJo-Medium")


def _hex(data: bytes) -> str:
    return "<" + data.hex().upper() + ">"


def _literal(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def write_pdf(objects: list[bytes | str]) -> bytes:
    """Objects (1-based numbers in list order; object 1 is the catalog) as a PDF file with a valid xref."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(out.tell())
        body = obj.encode("latin-1") if isinstance(obj, str) else obj
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def _stream(data: bytes, extra: str = "", compress: bool = True) -> bytes:
    if compress:
        data = zlib.compress(data)
        extra += " /Filter /FlateDecode"
    return f"<< /Length {len(data)}{extra} >>\nstream\n".encode() + data + b"\nendstream"


def _document(page_contents: list[bytes], font_objects: list[bytes | str]) -> bytes:
    """Catalog, page tree, one page per content stream, all sharing font /F1 (font_objects[0])."""
    n = len(page_contents)
    first_page = 3
    first_content = first_page + n
    font = first_content + n
    kids = " ".join(f"{first_page + i} 0 R" for i in range(n))
    objects: list[bytes | str] = ["<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {n} >>"]
    for i in range(n):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] /Contents "
                       f"{first_content + i} 0 R /Resources << /Font << /F1 {font} 0 R >> >> >>")
    objects += [_stream(c) for c in page_contents]
    objects += font_objects
    return write_pdf(objects)


def _content(lines: list[str], encode, size: float = 12) -> bytes:
    """Lines top to bottom at `size` pt, each shown by one Tj of encode(line) (a PDF string)."""
    lead = size * 1.6
    ops = [f"BT /F1 {size:g} Tf {lead:g} TL 56 {PAGE_H - 72} Td"]
    ops += [f"{encode(line)} Tj T*" for line in lines]
    ops.append("ET")
    return "\n".join(ops).encode("latin-1")


def paginate(lines: list[str], per_page: int = 40) -> list[list[str]]:
    return [lines[i:i + per_page] for i in range(0, len(lines), per_page)] or [[]]


def standard_pdf(pages: list[list[str]], size: float = 12) -> bytes:
    """Latin text in Helvetica (WinAnsiEncoding, not embedded)."""
    contents = [_content(p, lambda s: _literal(s.encode("cp1252").decode("latin-1")), size) for p in pages]
    return _document(contents, ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"])


def predefined_pdf(
    pages: list[list[str]], font: Predefined, size: float = 12, embed: str | Path | None = None
) -> bytes:
    """CJK text in a Type 0 font through a predefined CMap (no ToUnicode map): not embedded (the viewer substitutes
    a system font), or with `embed` a TrueType file embedded as the CIDFont (CIDToGIDMap /Identity: the glyph
    shapes do not follow the CIDs, so such a file renders wrong glyphs; its text layer is what is measured)."""
    contents = [_content(p, lambda s: _hex(s.encode(font.codec)), size) for p in pages]
    this = len(pages) * 2 + 3  # the Type 0 font's own number: the descendant and descriptor follow it
    kind, file_ref, extra = "CIDFontType0", "", []
    if embed is not None:
        data = Path(embed).read_bytes()
        kind, file_ref = "CIDFontType2", f" /FontFile2 {this + 3} 0 R"
        extra = [_stream(data, f" /Length1 {len(data)}")]
    objects = [
        f"<< /Type /Font /Subtype /Type0 /BaseFont /{font.base_font} /Encoding /{font.cmap} "
        f"/DescendantFonts [{this + 1} 0 R] >>",
        f"<< /Type /Font /Subtype /{kind} /BaseFont /{font.base_font} /CIDSystemInfo << /Registry (Adobe) "
        f"/Ordering ({font.registry_ordering}) /Supplement 2 >> /FontDescriptor {this + 2} 0 R /DW 1000"
        f"{' /CIDToGIDMap /Identity' if embed is not None else ''} >>",
        f"<< /Type /FontDescriptor /FontName /{font.base_font} /Flags 6 /FontBBox [0 -200 1000 900] "
        f"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80{file_ref} >>",
        *extra,
    ]
    return _document(contents, objects)


# ---- embedded TrueType by glyph id ----


def _tables(data: bytes) -> dict[bytes, int]:
    """Table tag -> offset in a TrueType file."""
    count = struct.unpack(">H", data[4:6])[0]
    return {data[12 + 16 * i:16 + 16 * i]: struct.unpack(">I", data[20 + 16 * i:24 + 16 * i])[0] for i in range(count)}


def _cmap_format4(data: bytes) -> dict[int, int]:
    """The font's Unicode (3,1) format-4 cmap subtable: code point -> glyph id (BMP)."""
    offset = _tables(data)[b"cmap"]
    count = struct.unpack(">H", data[offset + 2:offset + 4])[0]
    for i in range(count):
        platform, encoding, sub = struct.unpack(">HHI", data[offset + 4 + 8 * i:offset + 12 + 8 * i])
        if (platform, encoding) == (3, 1):
            return _parse_format4(data, offset + sub)
    raise ValueError("no (3,1) cmap")


def _parse_format4(data: bytes, at: int) -> dict[int, int]:
    fmt, _length, _lang, seg2 = struct.unpack(">HHHH", data[at:at + 8])
    if fmt != 4:
        raise ValueError(f"cmap format {fmt}")
    n = seg2 // 2
    ends = struct.unpack(f">{n}H", data[at + 14:at + 14 + seg2])
    starts = struct.unpack(f">{n}H", data[at + 16 + seg2:at + 16 + 2 * seg2])
    deltas = struct.unpack(f">{n}h", data[at + 16 + 2 * seg2:at + 16 + 3 * seg2])
    range_at = at + 16 + 3 * seg2
    ranges = struct.unpack(f">{n}H", data[range_at:range_at + seg2])
    mapping = {}
    for i in range(n):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if ranges[i] == 0:
                gid = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + ranges[i] + 2 * (code - starts[i])
                gid = struct.unpack(">H", data[where:where + 2])[0]
                gid = (gid + deltas[i]) & 0xFFFF if gid else 0
            if gid:
                mapping[code] = gid
    return mapping


def _widths(data: bytes, gids: set[int]) -> str:
    """A /W array giving each used glyph its advance from the font's hmtx table, in 1/1000 em."""
    tables = _tables(data)
    units = struct.unpack(">H", data[tables[b"head"] + 18:tables[b"head"] + 20])[0]
    metrics = struct.unpack(">H", data[tables[b"hhea"] + 34:tables[b"hhea"] + 36])[0]
    hmtx = tables[b"hmtx"]
    parts = []
    for gid in sorted(gids):
        at = hmtx + 4 * min(gid, metrics - 1)
        parts.append(f"{gid} [{round(struct.unpack('>H', data[at:at + 2])[0] * 1000 / units)}]")
    return "[" + " ".join(parts) + "]"


def _to_unicode(gids: dict[str, int], units: dict[str, str] | None = None) -> bytes:
    """A ToUnicode map giving each glyph its character, or the UTF-16 units `units` names for it (hex digits)."""
    units = units or {}
    lines = [f"<{gid:04X}> <{units.get(ch, f'{ord(ch):04X}')}>"
             for ch, gid in sorted(gids.items(), key=lambda kv: kv[1])]
    chunks = [lines[i:i + 100] for i in range(0, len(lines), 100)]
    body = "".join(f"{len(c)} beginbfchar\n" + "\n".join(c) + "\nendbfchar\n" for c in chunks)
    return ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) "
            "/Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
            "1 begincodespacerange <0000> <FFFF> endcodespacerange\n" + body +
            "endcmap CMapName currentdict /CMap defineresource pop end end").encode()


def embedded_pdf(pages: list[list[str]] | list[list[tuple[float, float, str]]], font_path: str | Path, *,
                 to_unicode: bool, size: float = 12, units: dict[str, str] | None = None) -> bytes:
    """Text in an embedded TrueType font (Type 0, Identity-H: each character written as its glyph id): lines, or
    placements (`table_lines`).

    With `to_unicode` the font carries a ToUnicode map (what good PDF writers do); without one the glyph ids are
    all an extractor has, so the text layer is garbage while the page renders right (and OCR can read it).
    `units` makes the map give some characters other UTF-16 units ({"x": "D800"}: a lone surrogate)."""
    data = Path(font_path).read_bytes()
    cmap = _cmap_format4(data)
    texts = [[item if isinstance(item, str) else item[2] for item in page] for page in pages]
    used = {ch for page in texts for line in page for ch in line}
    gids = {ch: cmap.get(ord(ch), 0) for ch in used}

    def encode(s: str) -> str:
        return _hex(b"".join(struct.pack(">H", gids[c]) for c in s))

    contents = [_content(p, encode, size) if all(isinstance(i, str) for i in p) else _placed(p, encode, size)
                for p in pages]
    this = len(pages) * 2 + 3
    unicode_ref = f" /ToUnicode {this + 4} 0 R" if to_unicode else ""
    objects: list[bytes | str] = [
        f"<< /Type /Font /Subtype /Type0 /BaseFont /Embedded /Encoding /Identity-H "
        f"/DescendantFonts [{this + 1} 0 R]{unicode_ref} >>",
        f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Embedded /CIDSystemInfo << /Registry (Adobe) "
        f"/Ordering (Identity) /Supplement 0 >> /FontDescriptor {this + 2} 0 R /DW 1000 "
        f"/W {_widths(data, set(gids.values()))} /CIDToGIDMap /Identity >>",
        f"<< /Type /FontDescriptor /FontName /Embedded /Flags 4 /FontBBox [-1000 -300 2000 1000] /ItalicAngle 0 "
        f"/Ascent 900 /Descent -250 /CapHeight 700 /StemV 80 /FontFile2 {this + 3} 0 R >>",
        _stream(data, f" /Length1 {len(data)}"),
    ]
    if to_unicode:
        objects.append(_stream(_to_unicode(gids, units)))
    return _document(contents, objects)


# ---- text placed at given positions (tables) ----


def table_lines(before: list[str], rows: list[list[str]], after: list[str], widths: list[float],
                size: float = 10) -> list[tuple[float, float, str]]:
    """(x, y from the top, text) placements: `before` lines, then `rows` as a grid (one text operator per cell,
    column i starting at 56 + sum(widths[:i]) pt), then `after` lines."""
    lead, y, placed = size * 1.6, 72.0, []
    for line in before:
        placed.append((56.0, y, line))
        y += lead
    y += lead
    for row in rows:
        x = 56.0
        for cell, width in zip(row, widths):
            if cell:
                placed.append((x, y, cell))
            x += width
        y += lead
    y += lead
    for line in after:
        placed.append((56.0, y, line))
        y += lead
    return placed


def _placed(items: list[tuple[float, float, str]], encode, size: float) -> bytes:
    ops = [f"BT /F1 {size:g} Tf"]
    ops += [f"1 0 0 1 {x:g} {PAGE_H - y:g} Tm {encode(text)} Tj" for x, y, text in items]
    ops.append("ET")
    return "\n".join(ops).encode("latin-1")


def placed_pdf(pages: list[list[tuple[float, float, str]]], font: Predefined | None = None, size: float = 10) -> bytes:
    """Text at given places (`table_lines`): Latin in Helvetica, or CJK through a predefined CMap (`font`)."""
    if font is None:
        contents = [_placed(p, lambda s: _literal(s.encode("cp1252").decode("latin-1")), size) for p in pages]
        return _document(contents, ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                                    "/Encoding /WinAnsiEncoding >>"])
    this = len(pages) * 2 + 3
    contents = [_placed(p, lambda s: _hex(s.encode(font.codec)), size) for p in pages]
    return _document(contents, [
        f"<< /Type /Font /Subtype /Type0 /BaseFont /{font.base_font} /Encoding /{font.cmap} "
        f"/DescendantFonts [{this + 1} 0 R] >>",
        f"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /{font.base_font} /CIDSystemInfo << /Registry (Adobe) "
        f"/Ordering ({font.registry_ordering}) /Supplement 2 >> /FontDescriptor {this + 2} 0 R /DW 1000 >>",
        f"<< /Type /FontDescriptor /FontName /{font.base_font} /Flags 6 /FontBBox [0 -200 1000 900] "
        f"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
    ])


# ---- broken pages sharing one content stream (issue 49: OCR limits) ----


def shared_broken_pdf(broken_pages: int) -> bytes:
    """A first page of real text, then `broken_pages` pages that all show one content stream of control-character
    glyphs (Helvetica has none for them: a text layer of control characters over blank pages): 7 KB for 40 pages,
    each of which would otherwise be drawn and sent to text recognition."""
    first_broken = 5
    content = first_broken + broken_pages
    font = content + 1
    kids = " ".join(f"{i} 0 R" for i in [3, *range(first_broken, first_broken + broken_pages)])
    good = b"BT /F1 12 Tf 56 760 Td (The harbour survey of 1998 counted forty two fishing boats.) Tj ET"
    glyphs = "".join(chr(c) for c in range(1, 32) if c not in (10, 13))
    broken = "\n".join(f"BT /F1 14 Tf 56 {760 - 20 * i} Td {_literal(glyphs)} Tj ET" for i in range(30))

    def page(contents: int) -> str:
        return (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] /Contents {contents} 0 R "
                f"/Resources << /Font << /F1 {font} 0 R >> >> >>")

    objects: list[bytes | str] = ["<< /Type /Catalog /Pages 2 0 R >>",
                                  f"<< /Type /Pages /Kids [{kids}] /Count {broken_pages + 1} >>", page(4), _stream(good)]
    objects += [page(content) for _ in range(broken_pages)]
    objects += [_stream(broken.encode("latin-1")),
                "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    return write_pdf(objects)
