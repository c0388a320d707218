"""Harder scanned-page fixtures for the OCR bench and tests: dense 10 pt pages, two columns, a tilted noisy photo.

Built on `scans` (same fonts, 300 dpi, A4). Each maker returns (PIL image, ground truth); the truth of a
two-column page lists each row's left line then its right line, the order a line-by-line reader gives.
"""

from __future__ import annotations

import random

from tests.support import scans

MORE_ENGLISH = (
    "Invoices older than seven years may be shredded unless a tax inspector has asked to keep them.",
    "The river rose by two metres overnight, and the ferry to the northern bank stopped running at noon.",
    "Each participant received a numbered badge, a printed map of the campus and a voucher for lunch.",
    "Replace the filter every three months, or sooner if the air smells of dust when the fan starts.",
    "Our survey found that most readers prefer short chapters with a clear summary at the end.",
    "The train from Leeds was delayed by forty minutes because of a signal fault near the tunnel.",
)
MORE_CHINESE = (
    "超过七年的发票可以销毁，除非税务人员要求继续保存。",
    "河水一夜之间上涨了两米，通往北岸的渡轮中午停航。",
    "每位参加者都领到了编号胸牌、校园地图和一张午餐券。",
    "过滤网每三个月更换一次，如果风扇启动时有灰尘味则应提前更换。",
    "调查发现大多数读者喜欢篇幅较短、结尾有清楚总结的章节。",
    "由于隧道附近信号故障，从上海开来的列车晚点四十分钟。",
)


def _sentences(chinese: bool) -> tuple[str, ...]:
    return scans.CHINESE + MORE_CHINESE if chinese else scans.ENGLISH + MORE_ENGLISH


def dense_paragraphs(chinese: bool, count: int = 12, seed: int = 1) -> tuple[str, ...]:
    """Paragraphs of three sentences each, drawn in a fixed pseudo-random order (enough to fill an A4 page)."""
    pool = _sentences(chinese)
    rng = random.Random(seed)
    joiner = "" if chinese else " "
    return tuple(joiner.join(rng.sample(pool, 3)) for _ in range(count))


def dense_page(chinese: bool, size_pt: float = 10.0) -> tuple[object, str]:
    """A full A4 page of small text: what a book page or a contract looks like (~3,000 Latin characters)."""
    rows = 36 if size_pt <= 10 else 28
    paragraphs = _fill(dense_paragraphs(chinese, 30), chinese, size_pt, rows)
    return scans.render_page(paragraphs, chinese, size_pt=size_pt), scans.page_text(paragraphs)


def _fill(paragraphs: tuple[str, ...], chinese: bool, size_pt: float, rows: int) -> tuple[str, ...]:
    """The leading paragraphs whose wrapped lines (plus a gap line after each) fit in `rows` lines."""
    font = scans._font(round(size_pt * scans.DPI / 72), chinese)
    width = scans.PAGE[0] - 2 * scans.MARGIN
    kept, used = [], 0
    for paragraph in paragraphs:
        lines = len(scans._wrap(paragraph, font, width, chinese))
        if used + lines > rows:
            break
        kept.append(paragraph)
        used += lines + 1
    return tuple(kept)


def two_column_page(chinese: bool = False, size_pt: float = 10.0) -> tuple[object, str]:
    """An A4 page in two columns of 10 pt text on one line grid (a journal or newsletter page)."""
    from PIL import Image, ImageDraw

    px = round(size_pt * scans.DPI / 72)
    font = scans._font(px, chinese)
    gutter = 120
    column = (scans.PAGE[0] - 2 * scans.MARGIN - gutter) // 2
    lines: list[str] = []
    for paragraph in dense_paragraphs(chinese, 30, seed=2):
        lines += scans._wrap(paragraph, font, column, chinese)
    rows = (scans.PAGE[1] - 2 * scans.MARGIN) // round(px * 1.6)
    left, right = lines[:rows], lines[rows:2 * rows]
    image = Image.new("L", scans.PAGE, 255)
    draw = ImageDraw.Draw(image)
    truth = []
    for i, (a, b) in enumerate(zip(left, right)):
        y = scans.MARGIN + i * round(px * 1.6)
        draw.text((scans.MARGIN, y), a, font=font, fill=0)
        draw.text((scans.MARGIN + column + gutter, y), b, font=font, fill=0)
        truth.append(a + " " + b)
    return image, "\n".join(truth)


def photo_page(chinese: bool = False, angle: float = 2.0, seed: int = 3) -> tuple[object, str]:
    """The 12 pt page photographed: tilted by `angle` degrees, grey uneven paper, sensor noise, soft focus, JPEG."""
    import io

    import numpy as np
    from PIL import Image, ImageFilter

    paragraphs = dense_paragraphs(chinese, 8, seed=seed)
    page = scans.render_page(paragraphs, chinese)
    tilted = page.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
    pixels = np.asarray(tilted, dtype=np.float32)
    h, w = pixels.shape
    shade = np.linspace(215, 180, w, dtype=np.float32)[None, :] * np.linspace(1.0, 0.9, h, dtype=np.float32)[:, None]
    paper = pixels / 255.0 * shade + (1 - pixels / 255.0) * 40
    noisy = paper + np.random.default_rng(seed).normal(0, 12, paper.shape)
    image = Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(1.2))
    buf = io.BytesIO()
    image.convert("RGB").save(buf, "JPEG", quality=70)
    return Image.open(io.BytesIO(buf.getvalue())), scans.page_text(paragraphs)


def kinds() -> list[tuple[str, object, str]]:
    """(kind, image, ground truth) for every page kind the OCR bench measures."""
    out = [(f"{lang} 12 pt", image, truth) for lang, image, truth in scans.pages()]
    for chinese, lang in ((False, "en"), (True, "zh")):
        out.append((f"{lang} 10 pt dense", *dense_page(chinese)))
    out.append(("en two columns", *two_column_page(False)))
    out.append(("zh two columns", *two_column_page(True)))
    out.append(("en photo, tilted, noisy", *photo_page(False)))
    out.append(("zh photo, tilted, noisy", *photo_page(True)))
    return out
