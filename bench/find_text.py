"""The viewer's Find through a long text without a match: folded (every needle, as before) vs as it runs now.

    python -m bench.find_text [--chars 21000000] [--runs 3]

One line repeated to `--chars` characters, searched by `gui.text_find.find_text(text, query, 0)` (1 M-character
pieces, each through `engine.caseless_find`). "folded" forces every piece through the text's folding
(`caseless._find_folded`), what Find did for every needle before its fast path; "now" is Find as it runs (a needle
only its own characters can match found by `str.find` on the original text). Median of `--runs` alternated runs.
"""

from __future__ import annotations

import argparse
import statistics
import time

CASES = (  # text line, query: none found
    ("第三章：数据的收集与整理，样本与问卷（见图３－２）。\n", "量子纠缠"),
    ("第三章：数据的收集与整理，样本与问卷（见图３－２）。\n", "中国人口"),
    ("第三章：数据的收集与整理，样本与问卷（见图３－２）。\n", "数据，样本"),
    ("Die Straße am Hafen; Größe und Maße der Schiffe.\n", "kraken"),
    ("The harbour log of the day, line after line.\n", "kraken"),
)


def _seconds(call) -> float:
    start = time.perf_counter()
    assert call() is None
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=21_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from desktop_rag.engine.text import caseless
    from desktop_rag.gui.text_find import find_text

    caseless._folded_from()  # built once in the app's life: not timed
    fast = caseless._only_itself
    print(f"{args.chars:,} characters, no match (median of {args.runs} runs):")
    for line, query in CASES:
        text = line * (args.chars // len(line))
        times: dict[str, list[float]] = {"folded": [], "now": []}
        for _ in range(args.runs):
            caseless._only_itself = lambda text, needle: False
            times["folded"].append(_seconds(lambda: find_text(text, query, 0)))
            caseless._only_itself = fast
            times["now"].append(_seconds(lambda: find_text(text, query, 0)))
        folded, now = (statistics.median(times[name]) for name in ("folded", "now"))
        print(f"  {line[:12].strip()!r:16} {query!r:14} folded {folded:6.3f} s  now {now:6.3f} s  "
              f"{folded / now:5.1f}x")


if __name__ == "__main__":
    main()
