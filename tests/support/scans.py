"""Scanned-page fixtures made on the fly: known English and Chinese text rendered at 300 dpi (tests, bench/ocr.py)."""

from __future__ import annotations

import glob
import io
import subprocess
from pathlib import Path

DPI = 300
PAGE = (2480, 3508)  # A4 at 300 dpi
MARGIN = 240

ENGLISH = (
    "Scanned letters, signed contracts and old book pages often reach a computer only as pictures.",
    "The lighthouse keeper recorded the storm at four in the morning, when the harbour wall gave way.",
    "Please return the completed warranty card within thirty days of purchase to keep full coverage.",
    "Our quarterly budget review moved to the second floor meeting room next to the library.",
    "Fresh basil should be added at the very end of cooking so that its aroma is not lost.",
    "The museum opens at nine on weekdays and closes early on the first Monday of each month.",
)
CHINESE = (
    "扫描的合同、通知和书页常常只以图片的形式保存在电脑里。",
    "请在购买后三十天内寄回保修卡，以便享受完整的保修服务。",
    "本季度预算评审会议改在图书馆旁边的二楼会议室举行。",
    "灯塔看守人在凌晨四点记录了风暴，当时港口的防波堤被冲垮。",
    "新鲜的罗勒应在烹饪的最后加入，这样香气才不会散失。",
    "博物馆工作日九点开门，每月第一个星期一提前闭馆。",
)
# Phrases the tests search for (each appears on exactly one page above).
ENGLISH_PHRASE = "lighthouse keeper recorded the storm"
CHINESE_PHRASE = "灯塔看守人"

_CJK_CANDIDATES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)
NO_CJK_FONT = "no CJK font found (install fonts-noto-cjk: scripts/install.sh does it when run as root)"


def cjk_font_path() -> str | None:
    """A font file with Chinese glyphs, or None."""
    for candidate in _CJK_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    files = [line.split(":")[0].strip() for line in out.splitlines() if line.strip()]
    files += glob.glob("/usr/share/fonts/**/*CJK*", recursive=True)
    return files[0] if files else None


def _font(size: int, chinese: bool):
    from PIL import ImageFont

    path = cjk_font_path()
    if path is None:
        if chinese:
            raise RuntimeError(NO_CJK_FONT)
        for latin in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",):
            if Path(latin).exists():
                return ImageFont.truetype(latin, size)
        return ImageFont.load_default(size)
    index = 2 if path.endswith("NotoSansCJK-Regular.ttc") else 0  # 2 = Simplified Chinese in Noto's collection
    return ImageFont.truetype(path, size, index=index)


def _wrap(text: str, font, width: int, chinese: bool) -> list[str]:
    units = list(text) if chinese else text.split(" ")
    joiner = "" if chinese else " "
    lines, current = [], ""
    for unit in units:
        trial = current + (joiner if current else "") + unit
        if current and font.getlength(trial) > width:
            lines.append(current)
            current = unit
        else:
            current = trial
    return lines + ([current] if current else [])


def render_page(paragraphs: tuple[str, ...], chinese: bool, size_pt: float = 12.0, page: tuple[int, int] = PAGE):
    """A white page (A4 at 300 dpi unless `page` says) with the paragraphs in black (a clean scan), greyscale."""
    from PIL import Image, ImageDraw

    px = round(size_pt * DPI / 72)
    font = _font(px, chinese)
    image = Image.new("L", page, 255)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    for paragraph in paragraphs:
        for line in _wrap(paragraph, font, page[0] - 2 * MARGIN, chinese):
            draw.text((MARGIN, y), line, font=font, fill=0)
            y += round(px * 1.6)
        y += px
    return image


def page_text(paragraphs: tuple[str, ...]) -> str:
    """The ground truth of a rendered page."""
    return "\n".join(paragraphs)


def strip(paragraphs: tuple[str, ...], chinese: bool):
    """A short scan (the top of an A4 page at 300 dpi): cheaper to recognise than a whole page, for tests."""
    return render_page(paragraphs, chinese, page=(PAGE[0], 1000))


def pages() -> list[tuple[str, object, str]]:
    """(language, image, ground truth) for the English and the Chinese page."""
    return [("en", render_page(ENGLISH, False), page_text(ENGLISH)),
            ("zh", render_page(CHINESE, True), page_text(CHINESE))]


def image_pdf(images: list, path: Path) -> Path:
    """An image-only PDF (no text layer): one scanned image per page, as a scanner writes it."""
    first, *rest = [im.convert("RGB") for im in images]
    first.save(path, "PDF", resolution=DPI, save_all=True, append_images=rest)
    return path


def text_pdf_bytes(lines: list[str]) -> bytes:
    """A one-page PDF with a real text layer (Helvetica), for mixed documents."""
    body = "BT /F1 14 Tf 72 760 Td 18 TL " + " ".join(
        "(" + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ") Tj T*" for line in lines
    ) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(body)} >>\nstream\n{body}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n{obj}\nendobj\n".encode("latin-1"))
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def mixed_pdf(text_lines: list[str], scan, path: Path) -> Path:
    """Page 1 has a text layer, page 2 is a scanned image."""
    from pypdf import PdfReader, PdfWriter

    buf = io.BytesIO()
    image_pdf([scan], Path(path).with_suffix(".scan.pdf"))
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(text_pdf_bytes(text_lines))))
    writer.append(PdfReader(Path(path).with_suffix(".scan.pdf")))
    writer.write(buf)
    Path(path).with_suffix(".scan.pdf").unlink()
    Path(path).write_bytes(buf.getvalue())
    return Path(path)


def encrypted_pdf(source: bytes, path: Path, algorithm: str, user_password: str = "") -> Path:
    """`source` encrypted with pypdf (RC4-128, AES-128 = R4, AES-256-R5, AES-256 = R6)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(source)))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm=algorithm)
    with open(path, "wb") as fh:
        writer.write(fh)
    return Path(path)


def cer(truth: str, seen: str) -> float:
    """Character error rate: edit distance over the truth's length, whitespace ignored."""
    a, b = "".join(truth.split()), "".join(seen.split())
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] / max(len(a), 1)
