"""Which formats are paged, how the viewer shows them and their MIME types come from the reader registry
(engine/file_types.py): no module but the registry and the PDF loaders names the ".pdf" suffix (issue 47), so a
second paged format is one registry entry (and its renderer), not a hunt through the viewer."""

from __future__ import annotations

import ast

from tests.support import REPO

PACKAGE = REPO / "desktop_rag"
ALLOWED = {"engine/file_types.py"} | {f"engine/ingest/loaders/{name}.py" for name in
                                     ("pdf", "pdf_open", "pdf_pages", "pdf_layer", "pdf_tables")}


def suffix_literals(source: str) -> list[int]:
    """The lines of string constants (f-string parts too) that are the .pdf suffix: ".pdf", ".PDF", "*.pdf"."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.strip().lower().lstrip("*") == ".pdf"]


def test_no_pdf_suffix_outside_the_registry_and_the_pdf_loaders():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative not in ALLOWED and (lines := suffix_literals(path.read_text(encoding="utf-8"))):
            found[relative] = lines
    assert not found, f"ask the registry (file_types.is_paged, view_of, suffix_for_type) instead: {found}"


def test_the_check_sees_each_way_of_writing_it():
    assert suffix_literals('path.lower().endswith(".pdf")') == [1]
    assert suffix_literals('kind = "pdf" if p.suffix == ".PDF" else "text"') == [1]
    assert suffix_literals('pattern = "*.pdf"\nname = f"{stem}.pdf"') == [1, 2]
    assert suffix_literals('"""Asking in: report.pdf."""\nname = "report.pdf"\nmodule = "ingest.loaders.pdf"') == []
