"""OCR speed before vs after (issue 36): pages/s and CER per page kind, peak RSS of the OCR process, one run.

Run from the repository root: `python -m bench.ocr_speed` (`--rounds N`: passes per profile, alternated).
Each pass is a fresh child process (`--worker before|after`) that loads the models, reads every page kind of
`tests/support/scan_kinds.py` through `ocr.recognise` and reports its times, CERs and VmHWM; "before" is the
former pipeline (whole page shrunk to 2000 px, angle classifier), kept selectable by `ocr.use_profile`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from bench.common import emit, figure, rss_mb


def _worker(profile: str) -> None:
    from desktop_rag.engine.ingest.loaders import ocr
    from tests.support import scan_kinds, scans

    ocr.use_profile(profile)
    pages = scan_kinds.kinds()
    ocr.recognise(scans.strip(("Warm up.",), False))
    out = []
    for kind, image, truth in pages:
        t0, c0 = time.perf_counter(), time.process_time()
        text = ocr.recognise(image)
        out.append({"kind": kind, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                    "cer": scans.cer(truth, text)})
    print(json.dumps({"pages": out, "hwm": rss_mb("self", "VmHWM")}))


def main(argv: list[str] | None = None) -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--rounds", type=int, default=1)
    args.add_argument("--worker", choices=("before", "after"))
    opts = args.parse_args(argv)
    if opts.worker:
        _worker(opts.worker)
        return
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for _ in range(opts.rounds):
        for profile in ("before", "after"):
            out = subprocess.run([sys.executable, "-m", "bench.ocr_speed", "--worker", profile],
                                 capture_output=True, text=True, check=True, timeout=3600)
            runs[profile].append(json.loads(out.stdout.strip().splitlines()[-1]))
    rows = []
    totals = {}
    for profile, passes in runs.items():
        wall = sum(p["wall"] for r in passes for p in r["pages"])
        cpu = sum(p["cpu"] for r in passes for p in r["pages"])
        n = sum(len(r["pages"]) for r in passes)
        totals[profile] = n / wall
        rows.append(figure(f"{profile}: pages/s (all kinds)", n / wall, "pages/s",
                           note=f"{n} pages, {wall:.1f} s wall, {cpu:.1f} s CPU"))
        rows.append(figure(f"{profile}: peak RSS of the OCR process (VmHWM)", max(r["hwm"] for r in passes), "MB"))
    rows.append(figure("speed-up after/before (pages/s)", totals["after"] / totals["before"], "x", ">= 2",
                       totals["after"] / totals["before"] >= 2))
    for i, page in enumerate(runs["before"][0]["pages"]):
        kind = page["kind"]
        before = [r["pages"][i] for r in runs["before"]]
        after = [r["pages"][i] for r in runs["after"]]
        cer_b, cer_a = before[0]["cer"] * 100, after[0]["cer"] * 100
        wall_b, wall_a = sum(p["wall"] for p in before) / len(before), sum(p["wall"] for p in after) / len(after)
        rows.append(figure(f"{kind}: CER before / after", f"{cer_b:.2f} / {cer_a:.2f}", "%", "after <= before",
                           cer_a <= cer_b + 1e-9, note=f"{wall_b:.2f} s -> {wall_a:.2f} s per page"))
    emit("ocr_speed", rows)


if __name__ == "__main__":
    main()
