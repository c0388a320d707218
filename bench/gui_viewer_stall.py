"""Viewer responsiveness: the longest GUI-thread gap while opening and paging through a 300-page PDF."""

from __future__ import annotations

import argparse
import re

from bench.common import emit, figure
from bench.gui_stall import stall_rows

TEST = "tests/gui/test_viewer_stall.py"
CACHE = re.compile(r"Viewer page cache: (\d+) pages, ([\d.]+) MB \(bound (\d+) MB\)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.parse_args(argv)
    rows, result = stall_rows(TEST, "viewer", "opening|flipping|rendering")
    cache = CACHE.search(result.stdout)
    if cache:
        rows.append(figure("viewer.page_cache_mb", float(cache.group(2)), "MB", f"<= {cache.group(3)}",
                           float(cache.group(2)) <= float(cache.group(3)), note=f"{cache.group(1)} pages kept"))
    emit("gui_viewer_stall", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
