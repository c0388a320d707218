"""One cited passage located in a PDF: PDFium in this process vs in its PDFium child (document/pdf_child.py).

    python -m bench.locate_child [--pages 40] [--runs 20]

A PDF of `--pages` pages (`tests/support/pdf_build.py`, 30 lines a page), the passage on its last page and cited on
its first (so every page is searched, as when the page numbers changed). Each row is the median of `--runs` calls of
`locate` (the PDF opened, searched, closed): "in process" with a `PdfFile` given (what `locate` did without a child
before), "warm child" through a `PdfPages` already started (the window's viewer), "own child" with nothing given
(what `locate` does now for a command or a script: a child started and ended for the call). And a passage on its
cited page, where one page is read.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def _median_ms(call, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    from desktop_rag.engine.document.locate import locate
    from desktop_rag.engine.document.pdf_child import PdfPages
    from desktop_rag.engine.document.pdf_render import PdfFile
    from desktop_rag.engine.store.values import Hit
    from tests.support import pdf_build as build

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.pdf"
        pages = [[f"Page {p} line {n}: the harbour log of the day." for n in range(30)] for p in range(args.pages)]
        passage = "The lighthouse keeper recorded the storm at four in the morning."
        pages[-1][10] = passage
        path.write_bytes(build.standard_pdf(pages))
        child = PdfPages()
        try:
            for label, cited in (("passage on the last page, cited on the first", 1),
                                 ("passage on its cited page", args.pages)):
                hit = Hit(1, 1.0, str(path), cited, "", passage)

                def in_process() -> None:
                    pdf = PdfFile(path)
                    try:
                        assert locate(hit, None, pdf=pdf).page == args.pages
                    finally:
                        pdf.close()

                rows = {"in process": in_process,
                        "warm child": lambda: locate(hit, None, pages=child),
                        "own child": lambda: locate(hit, None)}
                rows["warm child"]()  # the child started once, as the viewer's is
                print(f"{args.pages} pages, {label} (median of {args.runs}):")
                for name, call in rows.items():
                    print(f"  {name:11} {_median_ms(call, args.runs):8.1f} ms")
        finally:
            child.close()


if __name__ == "__main__":
    main()
