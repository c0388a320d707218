"""`desktop-rag eval` (the labelled questions against the library: recall@5, precision@5, nDCG@10 per retrieval
mode) and `desktop-rag forget-grades` (issue 39)."""

from __future__ import annotations

import argparse
import sys
import time

from desktop_rag.cli.output import print_json
from desktop_rag.cli.terminal import clean_line
from desktop_rag.cli.texts import language, say
from desktop_rag.config import AppPaths
from desktop_rag.engine import Engine, counted

_QUIET_S = 10.0  # progress on a stderr that is not a terminal: one line at most this often


def cmd_eval(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        collection = engine.collection_id(args.collection)
        report = engine.review.evaluate(collection, args.queries, args.qrels, _progress())
    finally:
        engine.close()
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
    if args.json:
        print_json(report.to_json())
        return 0
    if not report.modes or not report.modes[0].queries:
        print(say("eval.none"))
    else:
        measured = report.modes[0].queries
        print(say("eval.measured", n=measured))
        print(f"{'mode':<18}{'recall@5':>10}{'precision@5':>13}{'nDCG@10':>10}{'questions':>11}")
        for scores in report.modes:
            print(f"{scores.mode:<18}{scores.recall_at_5:>10.3f}{scores.precision_at_5:>13.3f}"
                  f"{scores.ndcg_at_10:>10.3f}{scores.queries:>11}")
    for stale in report.stale:
        print(say("eval.stale", reason=say(f"eval.{stale.reason}"), question=clean_line(stale.question)[:100]))
    return 0


def cmd_forget_grades(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        forgotten = engine.review.forget()
    finally:
        engine.close()
    if args.json:
        print_json({"forgotten": forgotten})
    else:
        print(say("grades.forgotten", n=forgotten))
    return 0


def _progress():
    """Questions measured so far, on stderr: a live line on a terminal, else a line every _QUIET_S seconds."""
    last = [time.monotonic()]

    def show(done: int, total: int) -> None:
        if sys.stderr.isatty():
            sys.stderr.write("\r\033[K" + say("eval.progress", done=done, total=total))
        elif time.monotonic() - last[0] >= _QUIET_S:
            last[0] = time.monotonic()
            sys.stderr.write(say("eval.progress_line", done=done, questions=counted(language(), questions=total)) + "\n")
        sys.stderr.flush()

    return show
