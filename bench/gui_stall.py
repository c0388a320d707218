"""GUI responsiveness: the longest event-loop gap while indexing and while streaming, from tests/gui."""

from __future__ import annotations

import argparse
import re
import sys

from bench.common import bench_env, emit, figure, run

TEST = "tests/gui/test_responsiveness.py"
GAP = re.compile(r"GUI stall while (indexing|streaming) [^:]*: longest gap ([\d.]+) ms over (\d+) ticks")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.parse_args(argv)
    result = run([sys.executable, "-m", "pytest", TEST, "-s", "-q", "-p", "no:cacheprovider"],
                  env=bench_env(QT_QPA_PLATFORM="offscreen"), timeout=900)
    rows = [figure(f"gui.longest_stall.{phase}", float(ms), "ms", "<= 100", float(ms) <= 100,
                   note=f"{ticks} ticks of a 5 ms QTimer ({TEST})")
            for phase, ms, ticks in GAP.findall(result.stdout)]
    if not rows:
        rows = [figure("gui.longest_stall", None, "ms", "<= 100", None,
                       note=f"{TEST} printed no figure (exit {result.returncode}): {result.stdout[-200:]!r}")]
    emit("gui_stall", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
