"""GUI responsiveness: the longest event-loop gap while indexing, while streaming, while a summary starts,
runs, streams and stops (issue 40), and while grading answers and using the Review view (issue 39), from tests/gui."""

from __future__ import annotations

import argparse
import re
import sys

from bench.common import Run, bench_env, emit, figure, run

TEST = "tests/gui/test_responsiveness.py"
SUMMARY_TEST = "tests/gui/test_summary_stall.py"  # a 50-page PDF's summary: start, progress, streaming, Stop
SUMMARY_PHASES = "summary-start|summary-progress|summary-streaming|summary-question|summary-cancel"
GRADING_TEST = "tests/gui/test_grading_stall.py"


def stall_rows(test: str, prefix: str, phases: str) -> tuple[list[dict], Run]:
    """Run a GUI stall test with -s and turn its "GUI stall while PHASE ...: longest gap X ms over N ticks"
    lines into figures (target <= 100 ms); also returns the run for extra figures."""
    gap = re.compile(rf"GUI stall while ({phases}) [^:]*: longest gap ([\d.]+) ms over (\d+) ticks")
    result = run([sys.executable, "-m", "pytest", test, "-s", "-q", "-p", "no:cacheprovider"],
                 env=bench_env(QT_QPA_PLATFORM="offscreen"), timeout=900)
    rows = [figure(f"{prefix}.longest_stall.{phase}", float(ms), "ms", "<= 100", float(ms) <= 100,
                   note=f"{ticks} ticks of a 5 ms QTimer ({test})")
            for phase, ms, ticks in gap.findall(result.stdout)]
    if not rows:
        rows = [figure(f"{prefix}.longest_stall", None, "ms", "<= 100", None,
                       note=f"{test} printed no figure (exit {result.returncode}): {result.stdout[-200:]!r}")]
    return rows, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.parse_args(argv)
    rows, _ = stall_rows(TEST, "gui", "indexing|streaming")
    rows += stall_rows(SUMMARY_TEST, "gui", SUMMARY_PHASES)[0]
    rows += stall_rows(GRADING_TEST, "gui", "grading|reviewing")[0]
    emit("gui_stall", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
