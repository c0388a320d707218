"""PDF text extraction: character error rate per engine on PDFs the bench writes, speed and robustness on real ones.

Run from the repository root: `python -m bench.pdf_extraction` (`--tiny`: the written PDFs only, no corpus).

1. CER table. The bench writes PDFs with known text (tests/support/pdf_build.py): English in a standard font;
   Chinese, Japanese and Korean in CJK fonts addressed through Adobe's predefined CMaps (GBK-EUC-H, GBKp-EUC-H,
   UniGB-UCS2-H, 90ms-RKSJ-H, ...), not embedded and embedded; CJK and English in embedded TrueType fonts by
   glyph id with a ToUnicode map, and without one (a text layer that is garbage to every extractor). Each is read
   by pypdf and by PDFium (page texts through the app's PDF cleaning) and by the loader itself (`load_pdf`, OCR on,
   in the parser child): CER = edit distance over the truth's length, whitespace ignored.
2. Corpus. Every PDF under `$DESKTOP_RAG_BENCH_CACHE/pdf-corpus` (`--corpus DIR`; built from public test suites,
   never in git: see bench/README.md) is read by today's text path (pypdf, `clean_pages`) and the new one (PDFium,
   the broken-layer check, `clean_pages`) in worker processes (a file that takes longer than `--file-timeout` is a
   hang; a worker that dies is a crash and the next file goes to a fresh worker): seconds, pages, CJK characters
   and broken pages found by each. Then every file goes through the real loader in the parser child (SafeParser,
   OCR off; files with broken pages again with OCR on): crashes, hangs and tracebacks ("The reader failed on this
   file (...)") counted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.common import CACHE, emit, figure
from tests.support import pdf_build as build
from tests.support import scans

CER_TARGET = 0.02
SPEED_TARGET = 5.0
JAPANESE = ("日本語のテキストを正しく抽出できるか確認します。", "東京都の天気は晴れ、ときどき曇りでしょう。",
            "図書館の二階にある会議室で、四半期の予算を見直しました。", "新鮮なバジルは料理の最後に加えると香りが残ります。")
KOREAN = ("한국어 문서의 텍스트를 올바르게 추출합니다.", "서울의 날씨는 맑겠습니다.",
          "도서관 옆 이층 회의실에서 분기 예산을 검토했습니다.", "박물관은 평일 아홉 시에 문을 엽니다.")
TRADITIONAL = ("掃描的合約、通知和書頁常常只以圖片的形式保存在電腦裡。", "請在購買後三十天內寄回保修卡。",
               "本季度預算評審會議改在圖書館旁邊的二樓會議室舉行。", "博物館工作日九點開門。")
CORPUS = CACHE / "pdf-corpus"
BATCH = 50  # corpus files per worker run


def _cases(folder: Path, tiny: bool) -> list[tuple[str, Path, str]]:
    """(name, path, truth) of every PDF the bench writes."""
    folder.mkdir(parents=True, exist_ok=True)
    repeat = 1 if tiny else 6  # lines per paragraph set: 6 x 4-6 lines, two pages
    texts = {"en": list(scans.ENGLISH) * repeat, "zh": list(scans.CHINESE) * repeat,
             "ja": list(JAPANESE) * repeat, "ko": list(KOREAN) * repeat, "zh-Hant": list(TRADITIONAL) * repeat}
    droid = Path(build.DROID).exists()
    specs = [("en standard Helvetica", "en", lambda p: build.standard_pdf(p))]
    for font, lang in ((build.GBK_EUC_H, "zh"), (build.GBKP_EUC_H, "zh"), (build.GB_EUC_H, "zh"),
                       (build.UNIGB_UCS2_H, "zh"), (build.UNIGB_UTF16_H, "zh"), (build.RKSJ_H, "ja"),
                       (build.RKSJP_H, "ja"), (build.EUC_H, "ja"), (build.UNIJIS_UCS2_H, "ja"),
                       (build.ETEN_B5_H, "zh-Hant"), (build.UNICNS_UCS2_H, "zh-Hant"), (build.UHC_H, "ko"),
                       (build.UNIKS_UCS2_H, "ko")):
        specs.append((f"{lang} {font.cmap} not embedded", lang, lambda p, f=font: build.predefined_pdf(p, f)))
        if droid and lang in ("zh", "ja"):
            specs.append((f"{lang} {font.cmap} embedded", lang,
                          lambda p, f=font: build.predefined_pdf(p, f, embed=build.DROID)))
    for lang, font in (("en", build.DEJAVU), *((("zh", build.DROID), ("ja", build.DROID)) if droid else ())):
        for to_unicode in (True, False):
            label = "with ToUnicode" if to_unicode else "no Unicode map"
            specs.append((f"{lang} embedded TrueType Identity-H {label}", lang,
                          lambda p, f=font, u=to_unicode: build.embedded_pdf(p, f, to_unicode=u)))
    out = []
    for name, lang, make in specs:
        lines = texts[lang]
        path = folder / (name.replace(" ", "_") + ".pdf")
        path.write_bytes(make(build.paginate(lines, 24 if lang == "en" else 30)))
        out.append((name, path, "".join(lines)))
    return out


def _pypdf_pages(path: Path) -> list[str]:
    from desktop_rag.engine.ingest.loaders.pdf_open import open_pypdf
    from desktop_rag.engine.ingest.loaders.pdf_pages import PypdfPages

    pages = PypdfPages(open_pypdf(path))
    return [pages.text(i)[0] or "" for i in range(len(pages))]


def _pdfium_pages(path: Path) -> tuple[list[str], int]:
    """Page texts and how many pages the broken-layer check flags."""
    from desktop_rag.engine.ingest.loaders.pdf_layer import broken
    from desktop_rag.engine.ingest.loaders.pdf_open import open_pdfium
    from desktop_rag.engine.ingest.loaders.pdf_pages import PdfiumPages

    pages = PdfiumPages(open_pdfium(path))
    try:
        texts, flagged = [], 0
        for i in range(len(pages)):
            text, unmapped = pages.text(i)
            texts.append(text or "")
            flagged += broken(text or "", unmapped) is not None
        return texts, flagged
    finally:
        pages.close()


def cer_rows(tiny: bool) -> list[dict]:
    import logging

    from desktop_rag.engine.ingest.cleaning import clean_pages
    from desktop_rag.engine.ingest.parsing import SafeParser

    logging.getLogger("pypdf").setLevel(logging.CRITICAL)
    rows = []
    with SafeParser(timeout_s=300) as parser:
        for name, path, truth in _cases(CACHE / ("pdf-extraction-tiny" if tiny else "pdf-extraction"), tiny):
            rates = {}
            for engine, read in (("pypdf", _pypdf_pages), ("pdfium", lambda p: _pdfium_pages(p)[0])):
                try:
                    rates[engine] = scans.cer(truth, "".join(clean_pages(read(path))))
                except Exception as exc:  # noqa: BLE001 - a figure, not a crash
                    rates[engine] = None
                    print(f"{name}: {engine} failed: {exc}", file=sys.stderr)
            try:
                doc = parser.parse(path)
                loader, how = scans.cer(truth, "".join(s.text for s in doc.sections)), "; ".join(doc.notes)
            except Exception as exc:  # noqa: BLE001 - LoadError: the reason is the figure's note
                loader, how = None, str(exc)
            best = rates["pdfium"]
            rows.append(figure(f"CER {name}: pypdf / PDFium / loader", " / ".join(
                "-" if r is None else f"{r * 100:.1f}" for r in (rates["pypdf"], best, loader)), "%",
                f"PDFium <= {CER_TARGET:.0%}", best is not None and best <= CER_TARGET if "no Unicode" not in name
                else None, note=f"{len(truth)} chars" + (f"; loader: {how}" if how else "")))
    return rows


# ---- the corpus: workers ----


def _cjk_count(text: str) -> int:
    from desktop_rag.engine.text.terms import CJK_CHAR

    return len(CJK_CHAR.findall(text))


def _worker(engine: str, files: list[str], timeout: int) -> None:
    """Read each file with one engine; one JSON line per file on stdout (a hang: alarm; a crash: the parent sees)."""
    import logging

    from desktop_rag.engine.ingest.cleaning import clean_pages

    logging.disable(logging.CRITICAL)

    def alarm(_signum, _frame):
        raise TimeoutError

    signal.signal(signal.SIGALRM, alarm)
    for path in files:
        row: dict = {"path": path}
        print(json.dumps({"start": path}), flush=True)
        started = time.perf_counter()
        signal.alarm(timeout)
        try:
            if engine == "pypdf":
                texts, flagged = _pypdf_pages(Path(path)), None
            else:
                texts, flagged = _pdfium_pages(Path(path))
            extracted = time.perf_counter()
            cleaned = clean_pages(texts)
            row.update(ok=True, pages=len(texts), extract_s=extracted - started,
                       clean_s=time.perf_counter() - extracted, cjk=sum(_cjk_count(t) for t in cleaned),
                       chars=sum(len(t) for t in cleaned), flagged=flagged)
        except TimeoutError:
            row.update(ok=False, error="hang")
        except Exception as exc:  # noqa: BLE001 - a file the engine refuses (LoadError) or fails on
            row.update(ok=False, error=type(exc).__name__, seconds=time.perf_counter() - started)
        finally:
            signal.alarm(0)
        print(json.dumps(row), flush=True)


def _run_engine(engine: str, files: list[str], timeout: int) -> dict[str, dict]:
    """Every file's row for `engine`; a worker that dies marks its current file crashed, a fresh one goes on."""
    rows: dict[str, dict] = {}
    left = list(files)
    while left:
        proc = subprocess.run([sys.executable, "-m", "bench.pdf_extraction", "--worker", engine,
                               "--file-timeout", str(timeout)], input="\n".join(left), capture_output=True,
                              text=True, timeout=timeout * len(left) + 120)
        current = None
        for line in proc.stdout.splitlines():
            item = json.loads(line)
            if "start" in item:
                current = item["start"]
            else:
                rows[item["path"]] = item
                current = None
        if current is not None:
            rows[current] = {"path": current, "ok": False, "error": f"crash (exit {proc.returncode})"}
        left = [f for f in left if f not in rows]
        if proc.returncode == 0 and left:  # nothing printed for them: should not happen
            for f in left:
                rows[f] = {"path": f, "ok": False, "error": "not read"}
            break
    return rows


def _loader_run(files: list[str], ocr: bool) -> dict[str, str]:
    """Each file through the real loader in the parser child: 'ok' or the reason it failed."""
    from desktop_rag.engine.errors import LoadError
    from desktop_rag.engine.ingest.parsing import SafeParser

    out = {}
    with SafeParser(timeout_s=60, ocr=ocr) as parser:
        for path in files:
            try:
                parser.parse(path)
                out[path] = "ok"
            except LoadError as exc:
                out[path] = str(exc)
    return out


def corpus_rows(corpus: Path, limit: int, timeout: int) -> list[dict]:
    files = sorted(str(p) for p in corpus.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file())[:limit or None]
    if not files:
        return [figure("corpus", None, note=f"no PDFs under {corpus} (see bench/README.md to build it)")]
    old: dict[str, dict] = {}
    new: dict[str, dict] = {}
    for start in range(0, len(files), BATCH):  # alternate the engines, so a change in machine load hits both
        batch = files[start:start + BATCH]
        old.update(_run_engine("pypdf", batch, timeout))
        new.update(_run_engine("pdfium", batch, timeout))
    both = [f for f in files if old[f]["ok"] and new[f]["ok"]]
    pages = sum(new[f]["pages"] for f in both)
    t_old = sum(old[f]["extract_s"] + old[f]["clean_s"] for f in both)
    t_new = sum(new[f]["extract_s"] + new[f]["clean_s"] for f in both)
    raw_old, raw_new = sum(old[f]["extract_s"] for f in both), sum(new[f]["extract_s"] for f in both)
    cjk_files = [f for f in both if old[f]["cjk"] or new[f]["cjk"]]
    rows = [
        figure("corpus files (read by both engines)", len(files), note=f"{len(both)} read by both, {pages:,} pages"),
        figure("text path, today (pypdf + cleaning)", t_old, "s", note=f"extraction alone {raw_old:.2f} s"),
        figure("text path, new (PDFium + broken-layer check + cleaning)", t_new, "s",
               note=f"extraction alone {raw_new:.2f} s"),
        figure("speed-up of the text path", t_old / max(t_new, 1e-9), "x", f">= {SPEED_TARGET:g}",
               t_old / max(t_new, 1e-9) >= SPEED_TARGET, note=f"extraction alone {raw_old / max(raw_new, 1e-9):.1f}x"),
        figure("CJK characters extracted: pypdf / PDFium", f"{sum(old[f]['cjk'] for f in cjk_files):,} / "
               f"{sum(new[f]['cjk'] for f in cjk_files):,}", note=f"{len(cjk_files)} files with CJK text"),
        figure("pages with a broken text layer (PDFium, before re-reading)", sum(new[f]["flagged"] for f in both)),
    ]
    for engine, result in (("pypdf", old), ("PDFium", new)):
        errors: dict[str, int] = {}
        for f in files:
            if not result[f]["ok"]:
                errors[result[f]["error"]] = errors.get(result[f]["error"], 0) + 1
        rows.append(figure(f"{engine}: files not read", sum(errors.values()), note=json.dumps(errors)))
    rows += _robustness(files, new)
    return rows


def _robustness(files: list[str], new: dict[str, dict]) -> list[dict]:
    from desktop_rag.engine.ingest.parsing import CRASHED

    started = time.monotonic()
    plain = _loader_run(files, ocr=False)
    wall = time.monotonic() - started
    broken_files = [f for f in files if new[f].get("flagged")]
    started = time.monotonic()
    with_ocr = _loader_run(broken_files, ocr=True)
    ocr_wall = time.monotonic() - started
    rows = []
    for label, result, seconds in (("OCR off, every file", plain, wall),
                                   ("OCR on, files with broken pages", with_ocr, ocr_wall)):
        reasons = list(result.values())
        crashes = sum(r == CRASHED for r in reasons)
        hangs = sum(r.startswith("Reading this file took longer") for r in reasons)
        tracebacks = sum(r.startswith("The reader failed on this file") for r in reasons)
        indexed = sum(r == "ok" for r in reasons)
        rows.append(figure(f"loader in the parser child ({label}): crashes / hangs / tracebacks",
                           f"{crashes} / {hangs} / {tracebacks}", "", "0 / 0 / 0", crashes + hangs + tracebacks == 0,
                           note=f"{len(reasons)} files in {seconds:.1f} s, {indexed} read, {len(reasons) - indexed} "
                                "refused with a reason"))
        for path, reason in result.items():
            if reason == CRASHED or reason.startswith(("Reading this file took", "The reader failed")):
                print(f"{label}: {Path(path).name}: {reason}", file=sys.stderr)
    return rows


def main(argv: list[str] | None = None) -> None:
    args = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    args.add_argument("--tiny", action="store_true", help="the written PDFs only, one short page each; no corpus")
    args.add_argument("--corpus", type=Path, default=CORPUS, help="folder of real-world PDFs (default: %(default)s)")
    args.add_argument("--limit", type=int, default=0, help="read at most this many corpus files")
    args.add_argument("--file-timeout", type=int, default=30, help="seconds before a file counts as a hang")
    args.add_argument("--worker", choices=("pypdf", "pdfium"), help=argparse.SUPPRESS)
    opts = args.parse_args(argv)
    if opts.worker:
        _worker(opts.worker, [line for line in sys.stdin.read().splitlines() if line], opts.file_timeout)
        return
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    rows = cer_rows(opts.tiny)
    if not opts.tiny:
        rows += corpus_rows(opts.corpus, opts.limit, opts.file_timeout)
    emit("pdf_extraction", rows)


if __name__ == "__main__":
    main()
