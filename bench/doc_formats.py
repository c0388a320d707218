"""Slides, spreadsheets and tables (issue 37): parse speed per format, and table questions before/after.

    python -m bench.doc_formats [--files 20] [--rows 60] [--legacy]

1. Parse speed: files written by the formats' own writers (python-docx, python-pptx, openpyxl, csv), English and
   Chinese, read by the real parser child (SafeParser): files/s, units/s (slides, sheet rows), the child's peak RSS.
2. Table questions: a staff directory as a .docx table, a .pptx table and an .xlsx sheet (English) and a Chinese
   one; one question per row ("What is the phone number of X?" / "X的电话号码是多少？"), whose answer is one cell.
   hit@5: a top-5 passage holds X's row; header share: of the passages holding X's row, those that carry the
   table's header. "before": each table one section cut by the chunker (the header only in the first chunk);
   "after": row groups of at most the chunk size with the header repeated (`ingest.tables`). Bundled e5 model.
3. --legacy (needs LibreOffice): .doc/.xls/.ppt that LibreOffice saves from an .odt (odfpy; its .doc export drops
   python-docx's tables), the .xlsx and the .pptx, read by the real parser child, which converts each with
   LibreOffice: files/s, the child's peak RSS, LibreOffice's (its largest process over all runs of the bench) and
   the wall time of converting one file alone (LibreOffice's start included).
"""

from __future__ import annotations

import argparse
import csv
import shutil
import tempfile
import time
from pathlib import Path

FIRST = ["Alice", "Bruno", "Chen", "Dana", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Luis"]
LAST = ["Novak", "Okafor", "Petrov", "Quinn", "Rossi", "Sato", "Tanaka", "Umar", "Vega", "Weber"]
XING = ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴"]
MING = ["伟", "芳", "娜", "敏", "静", "磊", "洋", "艳", "勇", "军", "杰", "娟"]
DEPTS = ["Finance", "Sales", "Research", "Legal", "Support"]
BUMEN = ["财务部", "销售部", "研发部", "法务部", "客服部"]


def staff(rows: int, chinese: bool) -> list[list[str]]:
    names = [f"{x}{m}{n}" for x in XING for m in MING for n in MING] if chinese else \
        [f"{f} {l}" for l in LAST for f in FIRST]
    head = ["姓名", "部门", "电话", "办公室"] if chinese else ["Name", "Department", "Phone", "Office"]
    depts = BUMEN if chinese else DEPTS
    return [head] + [[names[i * 7 % len(names)], depts[i % 5], f"555-{1000 + i * 37 % 9000}", f"{2 + i % 9}{i:02d}"]
                     for i in range(rows)]


def write_docx(path: Path, table: list[list[str]], intro: str) -> None:
    import docx

    document = docx.Document()
    document.add_heading(intro, 1)
    document.add_paragraph(intro + ".")
    grid = document.add_table(rows=0, cols=len(table[0]))
    for row in table:
        for cell, text in zip(grid.add_row().cells, row):
            cell.text = text
    document.save(path)


def write_pptx(path: Path, table: list[list[str]], intro: str, slides: int = 1) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    per = max(1, (len(table) - 1 + slides - 1) // slides)
    for s in range(slides):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = f"{intro} {s + 1}"
        part = [table[0]] + table[1 + s * per:1 + (s + 1) * per]
        grid = slide.shapes.add_table(len(part), len(part[0]), Inches(0.5), Inches(1.5), Inches(9), Inches(5)).table
        for r, row in enumerate(part):
            for c, text in enumerate(row):
                grid.cell(r, c).text = text
        slide.notes_slide.notes_text_frame.text = intro
    deck.save(path)


def write_xlsx(path: Path, table: list[list[str]], intro: str) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = intro[:30]
    for row in table:
        book.active.append(row)
    book.save(path)


def write_csv(path: Path, table: list[list[str]], chinese: bool) -> None:
    with open(path, "w", newline="", encoding="gbk" if chinese else "utf-8") as f:
        csv.writer(f).writerows(table)


def write_odt(path: Path, table: list[list[str]], intro: str) -> None:
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, P

    doc = OpenDocumentText()
    doc.text.addElement(H(outlinelevel=1, text=intro))
    grid = Table(name="Staff")
    grid.addElement(TableColumn(numbercolumnsrepeated=len(table[0])))
    for row in table:
        line = TableRow()
        for text in row:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=text))
            line.addElement(cell)
        grid.addElement(line)
    doc.text.addElement(grid)
    doc.save(str(path))


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def parse_speed(root: Path, files: int, rows: int) -> None:
    from desktop_rag.engine.ingest.parsing import SafeParser

    writers = {
        ".docx": lambda p, t, zh: write_docx(p, t, "员工通讯录" if zh else "Staff directory"),
        ".pptx": lambda p, t, zh: write_pptx(p, t, "员工通讯录" if zh else "Staff directory", slides=10),
        ".xlsx": lambda p, t, zh: write_xlsx(p, t, "员工" if zh else "Staff"),
        ".csv": lambda p, t, zh: write_csv(p, t, zh),
    }
    print(f"| format | files | files/s | units/s | child peak RSS |\n|---|---|---|---|---|")
    for suffix, write in writers.items():
        folder = root / suffix[1:]
        folder.mkdir()
        paths = []
        for i in range(files):
            path = folder / f"f{i}{suffix}"
            write(path, staff(rows, chinese=i % 2 == 1), i % 2 == 1)
            paths.append(path)
        with SafeParser(timeout_s=120) as parser:
            parser.start()
            start = time.perf_counter()
            units = 0
            for path in paths:
                doc = parser.parse(path)
                units += len({s.page for s in doc.sections}) if suffix == ".pptx" else rows
            seconds = time.perf_counter() - start
            rss = _peak_rss_mb(parser.child_pid)
        unit = "slides" if suffix == ".pptx" else "rows"
        print(f"| {suffix} | {files} (half Chinese) | {files / seconds:.1f} | {units / seconds:,.0f} {unit} | "
              f"{rss:.0f} MB |")


def _soffice(soffice: str, target: str, sources: list[Path], out: Path) -> None:
    """LibreOffice saves `sources` as `target` (doc, xls, ppt) into `out`, in one run."""
    import subprocess

    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([soffice, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(out), *map(str, sources)],
                       check=True, capture_output=True, timeout=1800)


def legacy_speed(root: Path, files: int, rows: int) -> None:
    import resource

    from desktop_rag.engine.ingest.loaders.legacy_office import find_soffice
    from desktop_rag.engine.ingest.parsing import SafeParser

    soffice = find_soffice()
    if soffice is None:
        raise SystemExit("--legacy needs LibreOffice (soffice)")
    writers = {"doc": (".odt", lambda p, t, zh: write_odt(p, t, "员工通讯录" if zh else "Staff directory")),
               "xls": (".xlsx", lambda p, t, zh: write_xlsx(p, t, "员工" if zh else "Staff")),
               "ppt": (".pptx", lambda p, t, zh: write_pptx(p, t, "员工通讯录" if zh else "Staff directory", slides=10))}
    print("| format | files | files/s | units/s | child peak RSS | LibreOffice peak RSS | one file alone |\n"
          "|---|---|---|---|---|---|---|")
    for target, (suffix, write) in writers.items():
        made, folder = root / f"made-{target}", root / target
        made.mkdir()
        sources = []
        for i in range(files):
            sources.append(made / f"f{i}{suffix}")
            write(sources[-1], staff(rows, chinese=i % 2 == 1), i % 2 == 1)
        _soffice(soffice, target, sources, folder)
        started = time.perf_counter()
        _soffice(soffice, "docx" if target == "doc" else target + "x", [folder / f"f0.{target}"], root / "one")
        one_seconds = time.perf_counter() - started
        paths = sorted(folder.iterdir())
        with SafeParser(timeout_s=300) as parser:
            parser.start()
            start = time.perf_counter()
            units = 0
            for path in paths:
                doc = parser.parse(path)
                units += len({s.page for s in doc.sections}) if target == "ppt" else rows
            seconds = time.perf_counter() - start
            rss = _peak_rss_mb(parser.child_pid)
        office_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the largest waited-for process
        unit = "slides" if target == "ppt" else "rows"
        print(f"| .{target} | {len(paths)} (half Chinese) | {len(paths) / seconds:.2f} | {units / seconds:,.0f} {unit} "
              f"| {rss:.0f} MB | {office_rss:.0f} MB | {one_seconds:.1f} s |")


def table_questions(root: Path, rows: int) -> None:
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine
    from desktop_rag.engine.runtime import Runtime
    from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL

    docs = root / "tables"
    docs.mkdir()
    tables = {"en": staff(rows, chinese=False), "zh": staff(rows, chinese=True)}
    for lang, table in tables.items():
        intro = "员工通讯录" if lang == "zh" else "Staff directory"
        write_docx(docs / f"directory-{lang}.docx", table, intro)
        write_pptx(docs / f"directory-{lang}.pptx", table[:13], intro)  # a slide holds a dozen rows
        write_xlsx(docs / f"directory-{lang}.xlsx", table, intro)
    original = Runtime.parser
    print("| tables | questions | hit@5 | header share |\n|---|---|---|---|")
    for mode in ("before", "after"):
        def parser(self, _mode=mode):
            p = original(self)
            if _mode == "before":
                p.table_chars = 10 ** 9  # one section per table: the chunker cuts it, the header in one chunk
            return p

        Runtime.parser = parser
        engine = Engine(resolve_paths(root / f"home-{mode}"), Settings(embedding_model=MULTILINGUAL_MODEL))
        try:
            engine.index([docs])
            hits = questions = carry = holding = 0
            for lang, table in tables.items():
                for row in table[1:]:
                    name = row[0]
                    question = f"{name}的电话号码是多少？" if lang == "zh" else f"What is the phone number of {name}?"
                    found = [h for h in engine.search(question, 5) if f"| {name} |" in h.text]
                    questions += 1
                    hits += bool(found)
                    holding += len(found)
                    carry += sum(1 for h in found if f"| {' | '.join(table[0])} |" in h.text)
            print(f"| {mode} | {questions} | {hits / questions:.3f} | {carry / max(holding, 1):.3f} |")
        finally:
            engine.close()
            Runtime.parser = original


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--files", type=int, default=20)
    args.add_argument("--rows", type=int, default=60)
    args.add_argument("--legacy", action="store_true", help="only the legacy .doc/.xls/.ppt through LibreOffice")
    ns = args.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-doc-formats-"))
    try:
        if ns.legacy:
            legacy_speed(root, ns.files, ns.rows)
            return
        parse_speed(root, ns.files, ns.rows)
        table_questions(root, ns.rows)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
