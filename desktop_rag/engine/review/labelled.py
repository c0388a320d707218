"""The labelled questions `desktop-rag eval` measures: the user's (answers with a passage marked right, grouped by
normalised search query and scope) or an imported BEIR set (queries.jsonl + qrels.tsv, relevance by document).

A marked passage is its chunk while that chunk's text is unchanged; after a re-index (another chunk size, a
file read again) it is the same place of the same file, while the text there is the same words (whitespace
aside): so changing the chunking, the very thing a test set should measure, keeps the labels. A question whose
marked passage changed or vanished, or whose relevant documents are none in the library, is reported as stale
(reports.StaleLabel) rather than dropped silently."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.file_types import is_supported
from desktop_rag.engine.ingest.valid_text import valid_text
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.store import grades, labels
from desktop_rag.engine.store.passages import chunks_within, files_with_text
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.system_errors import os_reason
from desktop_rag.engine.text.questions import normalised_question
from desktop_rag.engine.review.reports import StaleLabel
from desktop_rag.engine.store.values import Hit

MAX_LINE = 100_000  # characters; a longer line in a labelled set is refused


@dataclass(frozen=True)
class Target:
    """A marked passage as the library holds it now: `key` names it among the relevant ids; a hit is it when it is
    the chunk `chunk_id` or covers at least half of [start, end) of file `file_id` (or half of itself)."""

    key: str
    chunk_id: int
    file_id: int
    start: int
    end: int

    def found_in(self, hit: Hit) -> bool:
        if hit.chunk_id == self.chunk_id:
            return True
        shared = min(hit.char_end, self.end) - max(hit.char_start, self.start)
        return hit.file_id == self.file_id and shared > 0 and 2 * shared >= min(hit.char_end - hit.char_start,
                                                                                self.end - self.start)


@dataclass(frozen=True)
class Labelled:
    """One question to measure: searched as `query` within `within`; `relevant` are the keys of the marked
    passages (`targets`), or document ids (file names without extension) when `targets` is empty."""

    id: str
    question: str
    query: str
    within: Restriction
    relevant: frozenset[str]
    targets: tuple[Target, ...] = ()


def from_grades(store: Store, collection: int | None) -> tuple[list[Labelled], list[StaleLabel]]:
    """The user's test set (in `collection`, if given: questions asked elsewhere, or about passages elsewhere, are
    left out), and the questions whose marked passages changed or vanished."""
    groups: dict[tuple[str, str], list[tuple]] = {}
    for row in labels.labelled(store):
        groups.setdefault((normalised_question(row[2]), row[3]), []).append(row)
    labelled: list[Labelled] = []
    stale: list[StaleLabel] = []
    for (_, scope), rows in groups.items():
        answer_id, question, query = rows[-1][:3]
        where, folders, types, files = json.loads(scope)
        if collection is not None and where not in (None, collection):
            continue
        found = [_target(store, row[4:]) for row in {row[4]: row for row in rows}.values()]
        targets = [t for t in found if isinstance(t, Target)]
        if collection is not None:
            inside = chunks_within(store, [t.chunk_id for t in targets], Restriction(collection))
            if targets and not inside:
                continue
            targets = [t for t in targets if t.chunk_id in inside]
        if not targets:
            stale.append(StaleLabel(str(answer_id), question, "changed" if "changed" in found else "vanished"))
            continue
        within = Restriction(collection if collection is not None else where, tuple(folders), tuple(types),
                             tuple(files))
        labelled.append(Labelled(str(answer_id), question, query, within,
                                 frozenset(t.key for t in targets), tuple(targets)))
    return labelled, stale


def _target(store: Store, mark: tuple) -> Target | str:
    """The marked passage now, or why it cannot be measured ("changed", "vanished")."""
    chunk_id, digest, path, start, end, squeezed = mark
    key = f"m{chunk_id}"
    current = store.hits_for([(chunk_id, 0.0)])
    if current and grades.text_hash(current[0].text) == digest:
        hit = current[0]
        return Target(key, chunk_id, hit.file_id, hit.char_start, hit.char_end)
    over = labels.chunks_over(store, path, start, end) if path else []
    if not over:
        return "vanished"
    pieces, at = [], start
    for _, _, first, last, text in over:  # the text of [start, end) from the chunks that hold it now
        if last > at:
            pieces.append(text[max(at, first) - first:min(end, last) - first])
            at = min(end, last)
    if at < end or grades.squeezed_hash("".join(pieces)) != squeezed:
        return "changed"
    best = max(over, key=lambda c: min(c[3], end) - max(c[2], start))
    return Target(key, best[0], best[1], start, end)


def from_beir(store: Store, queries: str | Path, qrels: str | Path,
              collection: int | None) -> tuple[list[Labelled], list[StaleLabel]]:
    """An imported set: every judged query, relevant = its documents (score > 0) that are in the library (any
    chunk of the file); a query none of whose documents is in the library is stale. UsageError when no query of
    the set is judged (ids that do not match, a qrels file without a header or with spaces for tabs)."""
    texts = _queries(Path(queries))
    judged = _qrels(Path(qrels))
    if not texts.keys() & judged.keys():  # (nothing to measure is the files' mistake, not "no labelled questions")
        raise UsageError.coded("labelled_set_unjudged", qrels=str(qrels), queries=str(queries), count=len(texts))
    within = Restriction(collection)
    present = {Path(p).stem for p in files_with_text(store, within)}
    labelled: list[Labelled] = []
    stale: list[StaleLabel] = []
    for qid, text in texts.items():
        if qid not in judged:
            continue
        relevant = judged[qid] & present
        if relevant:
            labelled.append(Labelled(qid, text, text, within, frozenset(relevant)))
        else:
            stale.append(StaleLabel(qid, text, "vanished"))
    return labelled, stale


def document_id(corpus_id: str) -> str:
    """A qrels corpus id as the document id search results are compared with: the file name without its
    extension ("guide.txt" and "guide" are both "guide")."""
    return Path(corpus_id).stem if is_supported(corpus_id) else corpus_id


def _queries(path: Path) -> dict[str, str]:
    return {str(query_id): text for query_id, text in query_lines(path)}


def query_lines(path: str | Path) -> Iterator[tuple[object, str]]:
    """(_id, text) of each line of a JSONL file of {"_id", "text"} objects (`eval`, `search --queries`, `context
    --queries`), read a line at a time: UsageError for a file that cannot be read, a line too long or malformed. A
    text with a lone surrogate (a JSON escape such as \\ud800) is made valid text (U+FFFD), as the facade's are."""
    for number, line in _lines(Path(path)):
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise UsageError.coded("bad_labelled_set", path=str(path), line=number,
                                   problem=Phrase("phrase.labelled.not_json", why=str(exc)))
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or "_id" not in item:
            raise UsageError.coded("bad_labelled_set", path=str(path), line=number,
                                   problem=Phrase("phrase.labelled.no_id_text"))
        yield item["_id"], valid_text(item["text"])


def _qrels(path: Path) -> dict[str, set[str]]:
    judged: dict[str, set[str]] = {}
    for number, line in _lines(path):
        if number == 1:
            continue  # the header line
        fields = line.split("\t")
        try:
            score = float(fields[2])
        except (IndexError, ValueError):
            raise UsageError.coded("bad_labelled_set", path=str(path), line=number,
                                   problem=Phrase("phrase.labelled.not_qrels")) from None
        if score > 0:
            judged.setdefault(fields[0].strip(), set()).add(document_id(fields[1].strip()))
    return judged


def _lines(path: Path):
    """(line number, text) of the non-empty lines; UsageError for a file that cannot be read, or for a line longer
    than MAX_LINE, found without reading more of it (a 300 MB line is never held in memory)."""
    number = 0
    try:
        with open(path, "rb") as handle:  # (decoded a line at a time: a byte that is not UTF-8 is named by its line)
            while raw := handle.readline(4 * MAX_LINE + 1):
                number += 1
                line = _decoded(raw, number, path)
                if len(line) > MAX_LINE:
                    raise UsageError.coded("bad_labelled_set", path=str(path), line=number,
                                           problem=Phrase("phrase.labelled.too_long"))
                if line.strip():
                    yield number, line.rstrip("\r\n")
    except OSError as exc:
        raise UsageError.coded("labelled_set_unreadable", path=str(path), detail=os_reason(exc)) from None


def _decoded(raw: bytes, number: int, path: Path) -> str:
    """Line `number` as text (more than 4 bytes a character allow is too long before it is decoded: it may end
    inside a character); UsageError naming it when it is not UTF-8."""
    if len(raw) > 4 * MAX_LINE:
        raise UsageError.coded("bad_labelled_set", path=str(path), line=number,
                               problem=Phrase("phrase.labelled.too_long"))
    try:
        return raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError:
        raise UsageError.coded("bad_labelled_set", path=str(path), line=number,
                               problem=Phrase("phrase.labelled.not_utf8")) from None
