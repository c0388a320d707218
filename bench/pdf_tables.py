"""PDF table questions (issue 36 item 3): hit@5 and header share, the header carried over pages or not.

    python -m bench.pdf_tables [--rows 50] [--per-page 20]

The bench writes PDFs with tables (`tests/support/pdf_build.py`, one text operator per cell), English (Helvetica)
and Chinese (GBK-EUC-H, not embedded): a staff directory of `--rows` rows running over pages with the header row
printed on the first page only, another printed again on every page, and a one-page table of 12 rows. One question
per row ("What is the phone number of X?" / "X的电话号码是多少？"), whose answer is one cell; the library is indexed
by the real Engine (parser child, bundled multilingual e5, default settings). hit@5: a top-5 passage holds X's
row; header share: of the passages holding X's row, those that carry the table's header row. "before": the
header not carried to the next page (`pdf_tables.carry_headers` switched off in the parser child by its init
hook); "after": the loader as shipped.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from bench.doc_formats import staff

WIDTHS = {"en": [120, 90, 90, 70], "zh": [90, 90, 90, 70]}
TITLE = {"en": ["Staff directory"], "zh": ["员工通讯录"]}


def _no_carry() -> None:
    """The parser child's init hook for "before": tables on a new page keep their own first row as header."""
    from desktop_rag.engine.ingest.loaders import pdf

    pdf.carry_headers = lambda tables: tables


def _write(path: Path, lang: str, table: list[list[str]], per_page: int, repeat: bool) -> None:
    from tests.support import pdf_build as build

    header, body = table[0], table[1:]
    pages = []
    for start in range(0, len(body), per_page):
        rows = body[start:start + per_page]
        first = start == 0
        pages.append(build.table_lines(TITLE[lang] if first else [], [header, *rows] if first or repeat else rows,
                                       [], WIDTHS[lang]))
    path.write_bytes(build.placed_pdf(pages, build.GBK_EUC_H if lang == "zh" else None))


def write_library(folder: Path, rows: int, per_page: int) -> dict[str, list[list[str]]]:
    """The PDFs; returns each file's table (first row: header)."""
    folder.mkdir(parents=True)
    tables: dict[str, list[list[str]]] = {}
    for lang in ("en", "zh"):
        everyone = staff(2 * rows + 12, chinese=lang == "zh")
        header = everyone[0]
        parts = {"header-once": (everyone[1:rows + 1], False), "header-every-page": (everyone[rows + 1:2 * rows + 1], True),
                 "one-page": (everyone[2 * rows + 1:], False)}
        for name, (body, repeat) in parts.items():
            table = [header, *body]
            _write(folder / f"{name}-{lang}.pdf", lang, table, per_page, repeat)
            tables[f"{name}-{lang}.pdf"] = table
    return tables


def measure(root: Path, tables: dict[str, list[list[str]]], mode: str) -> dict[str, tuple[int, int, int, int]]:
    """(questions, hits, passages holding the row, of them with the header) per file, for one mode."""
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine
    from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL
    from desktop_rag.engine.runtime import Runtime

    original = Runtime.parser

    def parser(self):
        p = original(self)
        p.init_hook = "bench.pdf_tables:_no_carry" if mode == "before" else None
        return p

    Runtime.parser = parser
    engine = Engine(resolve_paths(root / f"home-{mode}"), Settings(embedding_model=MULTILINGUAL_MODEL))
    counts: dict[str, tuple[int, int, int, int]] = {}
    try:
        report = engine.index([root / "pdfs"])
        assert not report.failed, report.failed
        for name, table in tables.items():
            header = f"| {' | '.join(table[0])} |"
            questions = hits = holding = carry = 0
            for row in table[1:]:
                who = row[0]
                question = f"{who}的电话号码是多少？" if name.endswith("-zh.pdf") else f"What is the phone number of {who}?"
                found = [h for h in engine.search(question, 5) if f"| {who} |" in h.text]
                questions += 1
                hits += bool(found)
                holding += len(found)
                carry += sum(1 for h in found if header in h.text)
            counts[name] = (questions, hits, holding, carry)
    finally:
        engine.close()
        Runtime.parser = original
    return counts


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--rows", type=int, default=50, help="rows of each long table (the English names repeat past 2 x 54)")
    args.add_argument("--per-page", type=int, default=20, help="rows printed on one page")
    ns = args.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-pdf-tables-"))
    try:
        tables = write_library(root / "pdfs", ns.rows, ns.per_page)
        print("| mode | tables | questions | hit@5 | header share |\n|---|---|---|---|---|")
        for mode in ("before", "after"):
            counts = measure(root, tables, mode)
            groups = {"header on page 1 only": [n for n in counts if n.startswith("header-once")],
                      "header on every page": [n for n in counts if n.startswith("header-every")],
                      "one page": [n for n in counts if n.startswith("one-page")], "all": list(counts)}
            for label, names in groups.items():
                q, h, held, carried = (sum(counts[n][i] for n in names) for i in range(4))
                print(f"| {mode} | {label} | {q} | {h / q:.3f} | {carried / max(held, 1):.3f} |", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
