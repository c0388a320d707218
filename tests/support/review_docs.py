"""Three one-line documents on unrelated topics, and a question only one of them answers (the review-log tests)."""

from __future__ import annotations

from pathlib import Path

TEA = "How hot should the water be for green tea?"


def three_docs(folder: Path) -> Path:
    """Write tea.txt (answers TEA), bus.txt and move.txt into `folder` (created); return it."""
    folder.mkdir()
    (folder / "tea.txt").write_text("Green tea is brewed with water at about eighty degrees for two minutes.",
                                    encoding="utf-8")
    (folder / "bus.txt").write_text("City buses run every ten minutes during the day and every half hour at "
                                    "night.", encoding="utf-8")
    (folder / "move.txt").write_text("The office moves to the fifth floor on Monday; boxes go by lift.",
                                     encoding="utf-8")
    return folder
