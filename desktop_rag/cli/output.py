"""Output shared by the command modules: JSON lines safe for a terminal, and a progress bar on stderr."""

from __future__ import annotations

import json
import re
import sys
import time

from desktop_rag.cli.terminal import clean_line
from desktop_rag.cli.texts import language, say
from desktop_rag.engine import Progress, error_text, model_download

# Characters JSON leaves raw with ensure_ascii=False that a terminal may act on (C1 controls, bidi
# overrides), and lone surrogates (an argument's undecodable bytes echoed back), which no UTF-8 output can hold:
# written as \uXXXX escapes, so the decoded JSON is still exactly the text.
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def said(failure: object) -> str:
    """An error, a file's reason (`Reason`) or an answer's notice, in the command line's language, safe for a
    terminal and on one line (a name or a server's text in it may hold a newline: "error: ...", "failed: ..." lines
    can't be forged)."""
    return clean_line(error_text(failure, language()))


def error_line(failure: object) -> str:
    """ "error: …" ("错误：…" in Chinese): a failure as the line stderr gets, said as `said` says it."""
    return say("line.error", why=said(failure))


def print_json(value: object) -> None:
    """One JSON line on stdout (non-ASCII kept, terminal-active characters escaped)."""
    text = json.dumps(value, ensure_ascii=False)
    print(_JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text), flush=True)


class TerminalProgress:
    """A one-line progress bar on stderr, only when it is a terminal."""

    def __init__(self, stream=None) -> None:
        self.stream = stream if stream is not None else sys.stderr  # stderr as it is now, not at import
        self.enabled = self.stream.isatty()
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if p.phase not in ("done",) and now - self._last < 0.1:
            return
        self._last = now
        if p.phase == "scan":
            line = say("progress.scan")
        elif p.phase == "text":
            line = say("progress.text", bar=_bar(p.files_done, p.files_total), done=p.files_done,
                       total=p.files_total, eta=_eta(p))
            if p.ocr_pages:
                line += say("progress.ocr", page=p.ocr_page, pages=p.ocr_pages)
        elif p.phase in ("embed", "reembed"):
            line = say(f"progress.{p.phase}", bar=_bar(p.chunks_embedded, p.chunks_total), done=p.chunks_embedded,
                       total=p.chunks_total, rate=p.rate, eta=_eta(p))
        else:
            line = ""
        self.stream.write("\r\033[K" + line + ("\n" if p.phase == "done" and line else ""))
        self.stream.flush()

    def model(self, p: model_download.DownloadProgress) -> None:
        """A model's first-use preparation (Engine.on_model_progress)."""
        if self.enabled:
            line = "" if p.phase == "done" else say("progress.model", step=p.files_done + 1, steps=p.files_total)
            self.stream.write("\r\033[K" + line)
            self.stream.flush()


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = int(width * done / total) if total else 0
    return "[" + "#" * filled + "." * (width - filled) + "]"


def _eta(p: Progress) -> str:
    return say("progress.eta", seconds=p.eta_seconds) if p.eta_seconds else ""
