"""Build the corpus of real-world test PDFs that `bench.pdf_extraction` reads (issue 36), never in git.

    python -m bench.pdf_corpus [--mirrors DIR] [--out DIR]

Reads bare git snapshots of public PDF test suites (fetched beforehand: `DIR/mozilla+pdf.js/repo`,
`DIR/py-pdf+pypdf/repo`, `DIR/py-pdf+sample-files/repo`; default DIR /work/.mirror) and writes every blob whose
path ends in .pdf and which starts like a PDF (`%PDF` within its first 1,024 bytes: Git LFS pointers and missing
blobs are skipped) into `$DESKTOP_RAG_BENCH_CACHE/pdf-corpus` under a flattened name prefixed by its repository.
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from bench.common import CACHE

REPOS = {"pdfjs": ("mozilla+pdf.js", "test/pdfs/"), "pypdf": ("py-pdf+pypdf", "resources/"),
         "samples": ("py-pdf+sample-files", "")}


def _blobs(git_dir: Path, prefix: str) -> list[tuple[str, str]]:
    """(object id, path) of every .pdf blob under `prefix` at HEAD."""
    listing = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "HEAD"], capture_output=True,
                             text=True, check=True).stdout
    found = []
    for line in listing.splitlines():
        meta, _, path = line.partition("\t")
        kind, oid = meta.split()[1:3]
        if kind == "blob" and path.startswith(prefix) and path.lower().endswith(".pdf"):
            found.append((oid, path))
    return found


def build(mirrors: Path, out: Path) -> dict[str, int]:
    """Write the corpus; returns the files written per repository."""
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, int] = {}
    for tag, (name, prefix) in REPOS.items():
        git_dir = mirrors / name / "repo"
        written[tag] = 0
        if not git_dir.exists():
            continue
        for oid, path in _blobs(git_dir, prefix):
            blob = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", oid], capture_output=True)
            if blob.returncode != 0 or b"%PDF" not in blob.stdout[:1024]:
                continue
            (out / f"{tag}--{path.replace('/', '--')}").write_bytes(blob.stdout)
            written[tag] += 1
    return written


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args.add_argument("--out", type=Path, default=CACHE / "pdf-corpus")
    ns = args.parse_args()
    written = build(ns.mirrors, ns.out)
    print(f"{sum(written.values())} PDFs in {ns.out}: " + ", ".join(f"{n} {tag}" for tag, n in written.items()))


if __name__ == "__main__":
    main()
