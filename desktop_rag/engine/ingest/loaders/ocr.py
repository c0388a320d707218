"""Local text recognition (OCR) with RapidOCR: PP-OCR Chinese/English models shipped inside its wheel."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, replace
from typing import Any

from desktop_rag.engine.errors import LoadError

MAX_PIXELS = 120_000_000  # a 300-dpi A0 sheet is ~140 MP; beyond this an image is a bomb, not a page
MAX_SIDE = 2000  # the former rule: the whole page shrunk to this side, then detected and read (profile "before")
DET_SIDE = 1280  # text is found on the page shrunk to this longest side (a 10 pt line at 300 dpi stays ~12 px
# tall), then read from the full-resolution page; 2.2x faster at equal or lower CER (bench/ocr_speed.py)
LOW_CONFIDENCE = 0.8  # a page read with a lower mean line confidence is read again turned (an upside-down or
# sideways scan: upright pages score >= 0.95, turned ones <= 0.55 on bench/ocr_speed.py's page kinds)
SIDEWAYS = 1.5  # text boxes this many times taller than wide, summed over the page: its lines stand on end
MIN_SIDE = 24  # smaller images (rules, bullets, logos) hold no readable line
REC_BATCH = 1  # lines recognised per call: RapidOCR's 6 pads each batch to its widest line (a page's lines differ
# in length), which cost ~40 % more CPU on dense pages at equal text (bench/ocr_speed.py)
MAX_THREADS = 4  # onnxruntime's pools: enough for a laptop, and a bounded address space under the memory cap

_engine: Any = None
_lock = threading.Lock()
_profile = "after"  # "before" = RapidOCR's own pipeline at MAX_SIDE with the angle classifier (bench comparison)


def use_profile(name: str) -> None:
    """Select the OCR pipeline: "after" (the shipped one) or "before" (the former, kept for bench/ocr_speed.py);
    before the first use (the engine keeps the recognition batch it was loaded with)."""
    global _profile
    if name not in ("before", "after"):
        raise ValueError(name)
    _profile = name


def engine() -> Any:
    """The process-wide RapidOCR instance (loaded on first use: about a second)."""
    global _engine
    with _lock:
        if _engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError as exc:
                raise LoadError.coded("ocr_unavailable") from exc
            threads = max(1, min(MAX_THREADS, os.cpu_count() or 1))
            _engine = RapidOCR(max_side_len=MAX_SIDE, print_verbose=False, intra_op_num_threads=threads)
            _quiet_sessions(_engine, threads)
            if _profile == "after":
                _engine.text_rec.rec_batch_num = REC_BATCH
        return _engine


def _quiet_sessions(rapid: Any, threads: int) -> None:
    """Reopen the det/rec sessions with idle threads that sleep instead of spinning (same wall, ~25 % less CPU
    on a busy machine, where the embedder runs beside the parser child)."""
    import onnxruntime as ort

    for holder in (getattr(rapid.text_det, "infer", None), getattr(rapid.text_rec, "session", None)):
        old = getattr(holder, "session", None)
        if old is None or not hasattr(old, "_model_path"):
            continue
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 4
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        holder.session = ort.InferenceSession(old._model_path, options, providers=["CPUExecutionProvider"])


def check_size(width: int, height: int) -> None:
    """Refuse images whose pixel count alone would exhaust memory (checked before decoding)."""
    if width * height > MAX_PIXELS:
        raise LoadError.coded("image_too_big", mp=width * height / 1e6, limit=MAX_PIXELS / 1e6)


def worth_reading(width: int, height: int) -> bool:
    """False for images too small to hold a line of text."""
    return min(width, height) >= MIN_SIDE and width * height >= 4000


Box = tuple[float, float, float, float]  # left, top, right, bottom in the image's pixels (top-left origin)


@dataclass(frozen=True)
class Recognised:
    """An image's recognised text and, in the text's order, each piece of it recognised in one box with that box
    (the pieces joined by spaces and line breaks make `text`: `layout`)."""

    text: str
    boxes: tuple[tuple[str, Box], ...] = ()


def recognise(image) -> str:
    """The text in a PIL image: lines top to bottom, words left to right, paragraphs by vertical gaps."""
    return read(image).text


def read(image) -> Recognised:
    """The text in a PIL image (as `recognise`) with the box of each piece of it, in the image's own pixels (a page
    read turned is laid out as read, its boxes given back on the page as it is)."""
    import numpy as np

    check_size(*image.size)
    if not worth_reading(*image.size):
        return Recognised("")
    rgb = _to_rgb(image)
    bgr = np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])  # RapidOCR takes OpenCV's channel order
    if _profile == "before":
        result, _elapsed = engine()(bgr)
        return layout(result or [])
    lines, turns = _oriented(bgr)
    found = layout(lines)
    if not turns:
        return found
    return replace(found, boxes=tuple((text, _turned_back(box, turns, bgr.shape)) for text, box in found.boxes))


def _oriented(bgr) -> tuple[list, int]:
    """The page's lines read upright, and the quarter turns anticlockwise the page was read at. A page whose lines
    stand on end is read turned 90 and 270 degrees (the recogniser would read each line but give them in a scrambled
    order); a page read with low confidence is read again turned 180 degrees; the best-scored reading is kept."""
    import numpy as np

    first = best = _read(bgr, upright=True)
    if best.confidence >= LOW_CONFIDENCE or not best.found:
        return best.lines, 0
    turned = 0
    for turns in (1, 3) if first.sideways else (2,):
        other = _read(np.ascontiguousarray(np.rot90(bgr, turns)))
        if other.confidence > best.confidence:
            best, turned = other, turns
    if first.sideways and best.confidence < LOW_CONFIDENCE:  # vertical writing, not a turned page
        other = _read(bgr)
        if other.confidence > best.confidence:
            best, turned = other, 0
    return best.lines, turned


def _turned_back(box: Box, turns: int, shape: tuple) -> Box:
    """A box on the page turned `turns` times a quarter anticlockwise (`np.rot90`), on the page as it is (`shape`:
    its rows and columns)."""
    height, width = shape[:2]
    back = {1: lambda x, y: (width - y, x), 2: lambda x, y: (width - x, height - y), 3: lambda x, y: (y, height - x)}
    (x0, y0), (x1, y1) = back[turns](box[0], box[1]), back[turns](box[2], box[3])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


@dataclass(frozen=True)
class _Reading:
    lines: list  # (box, text, score) of the lines scored at least the recogniser's text_score
    confidence: float  # mean score of every line read, weighted by its length (0 when nothing was read)
    sideways: bool  # the detected boxes are taller than wide, taken together (a page turned by 90 degrees)
    found: bool  # any text box was detected


def detection_side(width: int, height: int) -> int:
    """Longest side of the image text is detected on: DET_SIDE, or the image's own side if smaller."""
    return min(max(width, height), DET_SIDE)


def _read(bgr, upright: bool = False) -> _Reading:
    """Detect lines on the page shrunk to `detection_side`, read each line from the full-resolution page; with
    `upright`, a page whose lines stand on end is not read (confidence 0: `_oriented` turns it first).

    No angle classifier: on whole-line crops it flipped correct lines and lost them (26 % CER on a dense
    10 pt page, bench/ocr_speed.py), and it costs time on every line.
    """
    import cv2
    import numpy as np

    rapid = engine()
    h, w = bgr.shape[:2]
    side = detection_side(w, h)
    scale = side / max(w, h)
    small = bgr if scale >= 1 else cv2.resize(bgr, (max(1, round(w * scale)), max(1, round(h * scale))),
                                               interpolation=cv2.INTER_AREA)
    padded, record = rapid.maybe_add_letterbox(small, {})
    boxes, _elapsed = rapid.auto_text_det(padded)
    if boxes is None or len(boxes) == 0:
        return _Reading([], 0.0, False, False)
    boxes = np.array(boxes, dtype=np.float32)
    boxes[:, :, 1] -= record["padding_1"]["top"]
    boxes[:, :, 0] = np.clip(boxes[:, :, 0] * (w / small.shape[1]), 0, w - 1)
    boxes[:, :, 1] = np.clip(boxes[:, :, 1] * (h / small.shape[0]), 0, h - 1)
    spans = boxes.max(axis=1) - boxes.min(axis=1)
    sideways = float(spans[:, 1].sum()) > SIDEWAYS * float(spans[:, 0].sum())
    if sideways and upright:
        return _Reading([], 0.0, True, True)
    crops = rapid.get_crop_img_list(bgr, boxes)
    texts, _elapsed = rapid.text_rec(crops)
    lines = [(box.tolist(), text, score) for box, (text, score) in zip(boxes, texts) if score >= rapid.text_score]
    length = sum(len(text.strip()) for text, _ in texts)
    confidence = sum(score * len(text.strip()) for text, score in texts) / length if length else 0.0
    return _Reading(lines, float(confidence), sideways, True)


def _to_rgb(image):
    """RGB on white: transparent, palette, 16-bit and CMYK scans all become plain RGB."""
    from PIL import Image

    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        canvas = Image.new("RGB", rgba.size, (255, 255, 255))
        canvas.paste(rgba, mask=rgba.getchannel("A"))
        return canvas
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        return image.point(lambda v: v / 256).convert("L").convert("RGB")
    return image.convert("RGB") if image.mode != "RGB" else image


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return 0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF or 0x3000 <= code <= 0x303F


def _joined(words: list[str]) -> list[str]:
    """Boxes of one line: each word with what goes before it (a space between words, none between CJK characters)."""
    out: list[str] = []
    for word in words:
        out.append(" " if out and not (_is_cjk(out[-1][-1]) and _is_cjk(word[0])) else "")
        out.append(word)
    return out


def layout(result: list) -> Recognised:
    """RapidOCR boxes ([4 points], text, score) as text (boxes grouped into lines, a blank line at big gaps), with
    each box's text and its bounds in the text's order."""
    boxes = []
    for points, text, _score in result:
        text = (text or "").strip()
        if not text:
            continue
        ys = [p[1] for p in points]
        xs = [p[0] for p in points]
        boxes.append((min(ys), max(ys), min(xs), text, max(xs)))
    if not boxes:
        return Recognised("")
    boxes.sort()
    heights = sorted(b[1] - b[0] for b in boxes)
    typical = max(heights[len(heights) // 2], 1.0)
    lines: list[list[tuple[float, float, float, str, float]]] = []
    for box in boxes:
        centre = (box[0] + box[1]) / 2
        if lines:
            last = lines[-1]
            top = sum(b[0] for b in last) / len(last)
            bottom = sum(b[1] for b in last) / len(last)
            if abs(centre - (top + bottom) / 2) < typical / 2:
                last.append(box)
                continue
        lines.append([box])
    parts: list[str] = []
    placed: list[tuple[str, Box]] = []
    previous_bottom = None
    for line in lines:
        top = min(b[0] for b in line)
        if previous_bottom is not None:
            parts.append("\n\n" if top - previous_bottom > typical * 1.2 else "\n")
        ordered = sorted(line, key=lambda b: b[2])
        parts += _joined([b[3] for b in ordered])
        placed += [(b[3], (float(b[2]), float(b[0]), float(b[4]), float(b[1]))) for b in ordered]
        previous_bottom = max(b[1] for b in line)
    return Recognised("".join(parts), tuple(placed))
