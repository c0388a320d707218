"""A 50-page report as a PDF, for summary tests and the summary bench: every page different text (a survey of
one region per page), about 650 tokens a page, about 32k tokens in all."""

from __future__ import annotations

from pathlib import Path

from tests.data.make_fixtures import build_pdf

REGIONS = ["Alder", "Birch", "Cedar", "Dune", "Elm", "Fjord", "Granite", "Heath", "Iris", "Juniper"]
SUBJECTS = ["rainfall", "river flow", "soil carbon", "bird counts", "tree growth", "snow cover", "lake ice",
            "grazing", "wildfire scars", "pollinators"]


def page_lines(page: int, edition: int = 1) -> list[str]:
    """About 34 lines of 70-80 characters: what the survey of one region found, page by page."""
    region = f"{REGIONS[page % 10]} {page // 10 + 1}"
    lines = [f"Section {page}: the {region} survey (edition {edition})"]
    for n in range(33):
        subject = SUBJECTS[(page + n) % 10]
        lines.append(f"In {region}, {subject} changed by {(page * 7 + n * 3) % 41 + 2} percent over "
                     f"{n % 9 + 2} years; site {n + 1} agreed.")
    return lines


def write_long_pdf(path: Path, pages: int = 50, edited: tuple[int, ...] = ()) -> Path:
    """The report at `path`; pages in `edited` carry a second edition's text (an edited document)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(build_pdf([page_lines(p, 2 if p in edited else 1) for p in range(1, pages + 1)]))
    return path
