"""Issue 36 item 4: the settings that make OCR fast stay in force (bench/ocr_speed.py measures what they buy).

Text is detected on the page shrunk to ocr.DET_SIDE, read from the full-resolution page, with no angle
classifier, and the onnxruntime threads sleep when idle. A fake RapidOCR records what the pipeline asks of it.
"""

from __future__ import annotations

import numpy as np
import pytest

from desktop_rag.engine.ingest.loaders import ocr


class _Fake:
    """Stands in for RapidOCR: one box across the detection image; records the images det and rec received."""

    text_score = 0.5

    def __init__(self) -> None:
        self.det_shapes: list[tuple[int, ...]] = []
        self.crop_sources: list[tuple[int, ...]] = []
        self.text_rec = self._rec
        self.text_cls = self._cls

    def maybe_add_letterbox(self, img, record):
        return img, {"padding_1": {"top": 0, "left": 0}}

    def auto_text_det(self, img):
        self.det_shapes.append(img.shape)
        h, w = img.shape[:2]
        return [np.array([[0, 0], [w - 1, 0], [w - 1, h / 10], [0, h / 10]], dtype=np.float32)], 0.0

    def get_crop_img_list(self, img, boxes):
        self.crop_sources.append(img.shape)
        return [img[: int(b[2][1]) + 1, : int(b[1][0]) + 1] for b in boxes]

    def _rec(self, crops):
        return [("word", 0.99) for _ in crops], 0.0

    def _cls(self, crops):
        raise AssertionError("the angle classifier must not run")

    def __call__(self, *args, **kwargs):
        raise AssertionError("the former whole-page pipeline must not run")


@pytest.fixture
def fake(monkeypatch):
    engine = _Fake()
    monkeypatch.setattr(ocr, "_engine", engine)
    return engine


def test_detection_runs_on_the_page_shrunk_to_det_side(fake) -> None:
    from PIL import Image

    assert ocr.DET_SIDE <= 1280 < ocr.MAX_SIDE
    assert ocr.detection_side(2480, 3508) == ocr.DET_SIDE and ocr.detection_side(800, 600) == 800
    assert ocr.recognise(Image.new("L", (2480, 3508), 255)) == "word"
    assert max(fake.det_shapes[0][:2]) == ocr.DET_SIDE
    assert fake.crop_sources == [(3508, 2480, 3)], "lines are read from the full-resolution page"


def test_small_images_are_detected_at_their_own_size(fake) -> None:
    from PIL import Image

    ocr.recognise(Image.new("RGB", (900, 300), "white"))
    assert fake.det_shapes[0][:2] == (300, 900)


def test_onnxruntime_threads_sleep_when_idle() -> None:
    rapid = ocr.engine()
    for session in (rapid.text_det.infer.session, rapid.text_rec.session.session):
        entries = session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning")
        assert entries == "0"
