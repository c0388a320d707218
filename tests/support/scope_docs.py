"""Documents for the tests of what a scope (a file, a folder, a type) lets through: files of near-namesakes, each a
title and three passages sharing their words, so every one is a keyword and a dense candidate for every question
(tests/engine/test_file_scope.py, test_scope_rules.py)."""

from __future__ import annotations

from pathlib import Path

TEXT = "Solar energy storage {n}: batteries and plants store energy in roots and chemistry, report {n}."
NAMES = ["report.pdf.txt", "report.txt", "reports/report.txt", "notes.md", "report copy.txt"]  # near-namesakes


def scope_docs(root: Path, names: list[str] = NAMES, start: int = 0) -> Path:
    """`names` below `root`, each a title and three passages numbered from `start`; `root`."""
    for n, name in enumerate(names, start):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"Title {n}\n\n" + "\n\n".join(TEXT.format(n=n * 10 + i) for i in range(3)), "utf-8")
    return root
