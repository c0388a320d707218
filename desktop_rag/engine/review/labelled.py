"""The labelled questions `desktop-rag eval` measures: the user's (answers with a passage marked right, grouped by
normalised search query and scope) or an imported BEIR set (queries.jsonl + qrels.tsv, relevance by document).

A question whose marked passage changed or vanished, or whose relevant documents are none in the library, is
reported as stale (types.StaleLabel) rather than dropped silently."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.file_types import is_supported
from desktop_rag.engine.store import grades
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.store import Store
from desktop_rag.engine.text.questions import normalised_question
from desktop_rag.engine.types import Hit, StaleLabel

MAX_LINE = 100_000  # characters; a longer line in a labelled set is refused


@dataclass(frozen=True)
class Labelled:
    """One question to measure: searched as `query` within `within`; `relevant` are chunk ids (as text) of the
    marked passages (`chunks`, as stored now), or document ids (file names without extension) when `chunks` is
    empty."""

    id: str
    question: str
    query: str
    within: Restriction
    relevant: frozenset[str]
    chunks: tuple[Hit, ...] = ()


def from_grades(store: Store, collection: int | None) -> tuple[list[Labelled], list[StaleLabel]]:
    """The user's test set (in `collection`, if given: questions asked elsewhere, or about passages elsewhere, are
    left out), and the questions whose marked passages changed or vanished."""
    groups: dict[tuple[str, str], list[tuple]] = {}
    for row in grades.labelled(store.db):
        groups.setdefault((normalised_question(row[2]), row[3]), []).append(row)
    labelled: list[Labelled] = []
    stale: list[StaleLabel] = []
    for (_, scope), rows in groups.items():
        answer_id, question, query = rows[-1][:3]
        where, folders, types, files = json.loads(scope)
        if collection is not None and where not in (None, collection):
            continue
        marked = {cid: digest for *_, cid, digest in rows}
        current = store.hits_for([(cid, 0.0) for cid in marked])
        if collection is not None and current:
            inside = grades.chunks_within(store.db, [h.chunk_id for h in current], Restriction(collection))
            if not inside:
                continue
            current = [h for h in current if h.chunk_id in inside]
        same = [h for h in current if grades.text_hash(h.text) == marked[h.chunk_id]]
        if not same:
            stale.append(StaleLabel(str(answer_id), question, "changed" if current else "vanished"))
            continue
        within = Restriction(collection if collection is not None else where, tuple(folders), tuple(types),
                             tuple(files))
        labelled.append(Labelled(str(answer_id), question, query, within,
                                 frozenset(str(h.chunk_id) for h in same), tuple(same)))
    return labelled, stale


def from_beir(store: Store, queries: str | Path, qrels: str | Path,
              collection: int | None) -> tuple[list[Labelled], list[StaleLabel]]:
    """An imported set: every judged query, relevant = its documents (score > 0) that are in the library (any
    chunk of the file); a query none of whose documents is in the library is stale."""
    texts = _queries(Path(queries))
    judged = _qrels(Path(qrels))
    within = Restriction(collection)
    present = {Path(p).stem for p in grades.paths_within(store.db, within)}
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
    found: dict[str, str] = {}
    for number, line in _lines(path):
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise UsageError.coded("bad_labelled_set", path=str(path), line=number, problem=f"not JSON ({exc})")
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or "_id" not in item:
            raise UsageError.coded("bad_labelled_set", path=str(path), line=number,
                                   problem='no "_id" and "text"')
        found[str(item["_id"])] = item["text"]
    return found


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
                                   problem="not query-id, corpus-id and score") from None
        if score > 0:
            judged.setdefault(fields[0].strip(), set()).add(document_id(fields[1].strip()))
    return judged


def _lines(path: Path):
    """(line number, text) of the non-empty lines; UsageError for a file that cannot be read."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, 1):
                if len(line) > MAX_LINE:
                    raise UsageError.coded("bad_labelled_set", path=str(path), line=number, problem="line too long")
                if line.strip():
                    yield number, line.rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError.coded("bad_labelled_set", path=str(path), line=0, problem=str(exc)) from None
