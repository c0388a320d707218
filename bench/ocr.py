"""OCR figures: character error rate on clean 300-dpi English and Chinese pages, pages/s, peak memory of the child.

Run from the repository root: `python -m bench.ocr` (`--tiny`: short strips instead of A4 pages).
Everything goes through the real parser child (SafeParser), as indexing does.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench.common import CACHE, emit, figure, rss_mb
from desktop_rag.engine.ingest.loaders import ocr
from desktop_rag.engine.ingest.parsing import MAX_MEMORY_MB, SafeParser
from tests.support import scans

CER_TARGET = 0.05


def _fixtures(folder: Path, tiny: bool) -> list[tuple[str, Path, str]]:
    """(language, .png path, ground truth); the pages also go into one image-only PDF."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for lang, paragraphs, chinese in (("en", scans.ENGLISH, False), ("zh", scans.CHINESE, True)):
        image = scans.strip(paragraphs[:3], chinese) if tiny else scans.render_page(paragraphs, chinese)
        path = folder / f"{lang}.png"
        image.save(path)
        out.append((lang, path, scans.page_text(paragraphs[:3] if tiny else paragraphs)))
    from PIL import Image

    scans.image_pdf([Image.open(p) for _, p, _ in out], folder / "scan.pdf")
    return out


def _text(doc) -> str:
    return "\n".join(s.text for s in doc.sections)


def main(argv: list[str] | None = None) -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--tiny", action="store_true", help="short strips instead of full A4 pages")
    args.add_argument("--repeat", type=int, default=2, help="passes over the 2-page PDF for the pages/s figure")
    opts = args.parse_args(argv)
    pages = _fixtures(CACHE / ("ocr-tiny" if opts.tiny else "ocr"), opts.tiny)
    rows = []
    with SafeParser(timeout_s=600) as parser:
        started = time.monotonic()
        parser.start()
        warm = scans.strip(("Warm up.",), False)
        warm_path = pages[0][1].with_name("warm.png")
        warm.save(warm_path)
        parser.parse(warm_path)  # loads the OCR models in the child
        rows.append(figure("Child start + OCR model load + one short strip", time.monotonic() - started, "s"))
        for lang, path, truth in pages:
            t0 = time.monotonic()
            text = _text(parser.parse(path))
            rate = scans.cer(truth, text)
            rows.append(figure(f"CER {lang} ({'strip' if opts.tiny else 'A4 page'}, 12 pt, 300 dpi)", rate * 100, "%",
                               f"<= {CER_TARGET:.0%}", rate <= CER_TARGET,
                               note=f"{len(''.join(truth.split()))} chars, {time.monotonic() - t0:.1f} s"))
        t0 = time.monotonic()
        for _ in range(opts.repeat):
            parser.parse(pages[0][1].with_name("scan.pdf"))
        wall = time.monotonic() - t0
        n = 2 * opts.repeat
        rows.append(figure("OCR throughput, image-only PDF through the child", n / wall, "pages/s",
                           note=f"{n} pages in {wall:.1f} s ({wall / n:.1f} s/page); detection at max side {ocr.DET_SIDE} px"))
        pid = parser.child_pid
        rows.append(figure("Peak RSS of the parser child (VmHWM)", rss_mb(pid, "VmHWM"), "MB"))
        rows.append(figure("Peak address space of the child (VmPeak)", rss_mb(pid, "VmPeak"), "MB",
                           f"< cap {MAX_MEMORY_MB} MB", rss_mb(pid, "VmPeak") < MAX_MEMORY_MB,
                           note="RLIMIT_AS in force" if parser.memory_capped else "no cap on this OS"))
    emit("ocr", rows)


if __name__ == "__main__":
    main()
