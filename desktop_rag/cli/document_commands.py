"""`desktop-rag summarise PATH`: a summary of one document of the library (issue 40), streamed, cited by section."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import sys
from collections.abc import Iterable, Iterator

from desktop_rag.cli.output import error_line, language, print_json, said
from desktop_rag.cli.terminal import StreamCleaner, clean_line
from desktop_rag.cli.texts import say
from desktop_rag.config import AppPaths
from desktop_rag.engine import (
    AnswerEvent,
    ConfirmationNeeded,
    DoneEvent,
    Engine,
    ErrorEvent,
    Hit,
    Reason,
    SourcesEvent,
    SummaryPlan,
    SummaryStep,
    ThinkingEvent,
    TokenEvent,
    UsageError,
    counted,
    location_text,
)


def cmd_summarise(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    sections: tuple[Hit, ...] = ()
    summary, mode, notice, cached, failed = "", "extractive", "", False, False
    tokens = StreamCleaner()  # model text may carry escape sequences, split across tokens
    try:
        plan = engine.summary_plan(args.path, args.language, args.extractive)
        say_estimate(plan, engine, args.yes)
        with confirmed_by_yes():
            events = engine.summarise(args.path, args.language, extractive=args.extractive, confirm_cost=args.yes)
            first = next(events, None)  # the checks (the request limit too) run before anything is yielded
        for event in stepped(itertools.chain(() if first is None else (first,), events)):
            if isinstance(event, SourcesEvent):
                sections = event.hits
            elif isinstance(event, TokenEvent) and not args.json:
                print(tokens.feed(event.text), end="", flush=True)
            elif isinstance(event, DoneEvent):
                summary, mode, notice, cached = event.answer, event.mode, event.notice, event.cached
                if not args.json:
                    print(tokens.finish(), end="")
            elif isinstance(event, ErrorEvent):
                failed, summary = True, event.partial
                if not args.json:
                    print(tokens.finish(), end="", flush=True)
                print(f"\n{error_line(event.message)}", file=sys.stderr)
    finally:
        engine.close()
    if args.json:
        print_json({"path": plan.path, "summary": summary, "mode": mode, "plan": plan.mode,
                    "language": plan.language, "cached": cached, "notice": str(notice), "tokens": plan.tokens,
                    "requests": plan.requests, "sections": [h.to_json(n) for n, h in enumerate(sections, 1)]})
        return 1 if failed else 0
    if notice:
        print(f"\n\n({said(notice)})", end="")
    if cached:
        print(f"\n\n{say('summary.stored')}", end="")
    print(f"\n\n{say('summary.sections')}" if sections else "")
    for n, hit in enumerate(sections, 1):
        where = location_text(hit.path, hit.page, language())
        heading = clean_line(hit.heading) if hit.heading else ""
        print(f"[{n}] " + (", ".join(p for p in (where, heading) if p) or clean_line(" ".join(hit.text.split())[:60])))
    return 1 if failed else 0


def say_estimate(plan: SummaryPlan | None, engine: Engine, yes: bool) -> None:
    """A summary's cost, said before it starts when it takes several requests (stderr: stdout stays the text); over
    the request limit without --yes the error says it instead."""
    if plan is not None and 1 < plan.requests and (yes or plan.requests <= engine.settings.summary_request_limit):
        print(say("summary.cost", name=clean_line(os.path.basename(plan.path)),
                  sections=counted(language(), sections=plan.sections), tokens=plan.tokens, requests=plan.requests),
              file=sys.stderr)


@contextlib.contextmanager
def confirmed_by_yes() -> Iterator[None]:
    """A summary over the request limit refused inside the block (nothing was sent) says to add --yes."""
    try:
        yield
    except ConfirmationNeeded as exc:
        raise UsageError.coded("summary_confirm_yes", cost=Reason.of(exc)) from exc


def stepped(events: Iterable[AnswerEvent]) -> Iterator[AnswerEvent]:
    """The events but the steps of the model's requests (a summary's request, its model's thinking), said on a
    terminal's line as they come (`say_step`) and cleared at the next event, or as the events end (Ctrl-C while the
    model thinks: "interrupted" is said on a line of its own, not after the last step)."""
    shown = False
    try:
        for event in events:
            if isinstance(event, (SummaryStep, ThinkingEvent)):
                shown = say_step(event)
                continue
            shown = shown and say_step(None)
            yield event
    finally:
        if shown:
            say_step(None)


def say_step(step: SummaryStep | ThinkingEvent | None) -> bool:
    """What the model's request is at, on a terminal's line (stderr), in place of the last: which request of a
    summary runs, how much its model has thought; None clears the line (the answer starts). Whether one is shown."""
    if isinstance(step, ThinkingEvent):
        line = say("ask.thinking", count=f"{step.chars:,}")
    else:
        line = say("summary.request", n=step.done + 1, total=step.total) if step else ""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + line)
        sys.stderr.flush()
    return bool(line)
