"""A Unigram (sentencepiece-style) segmenter held in a few numpy arrays: about 6 MB loaded for a 250k-piece
vocabulary, where sentencepiece takes about 54 MB and the `tokenizers` Unigram about 280 MB.

Every piece is kept as two 64-bit polynomial hashes of its code points (the first sorted for lookup, the second
to confirm a match), its id and its score. A text's candidate pieces (every substring of at most the longest
piece's length) are hashed from prefix sums and looked up with one `searchsorted` for each WINDOW of start
positions (all at once, a 1 MB text took 0.9 GB); Viterbi then runs over the matches, as sentencepiece and `tokenizers` do: the best total score, a later start never replacing an equal
earlier one, a character no piece covers becoming the unknown piece (scored 10 below the lowest piece), and
consecutive unknowns fused into one. The unknown and control pieces are never matched in text.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from pathlib import Path

import numpy as np

_BASES = (np.uint64(0x100000001B3), np.uint64(0x9E3779B97F4A7C15))  # odd, so invertible modulo 2**64
_INVERSES = tuple(np.uint64(pow(int(b), -1, 1 << 64)) for b in _BASES)
UNK_PENALTY = 10.0
SPACE, METASPACE = " ", "\u2581"
WINDOW = 4096  # piece starts looked up at once: the lookup's arrays take about 1 KB a start (16 candidate pieces)


def _code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), np.uint32).astype(np.uint64) + np.uint64(1)


def _powers(base: np.uint64, count: int) -> np.ndarray:
    """base**0 .. base**(count-1) modulo 2**64."""
    out = np.full(count, base, np.uint64)
    out[0] = 1
    with np.errstate(over="ignore"):
        return np.cumprod(out, dtype=np.uint64)


def _hashes(points: np.ndarray, starts: np.ndarray, ends: np.ndarray, which: int) -> np.ndarray:
    """Hash `which` of points[starts:ends] for each pair: sum of points[start + j] * base**j, modulo 2**64."""
    with np.errstate(over="ignore"):
        prefix = np.concatenate(([np.uint64(0)], np.cumsum(points * _powers(_BASES[which], len(points)),
                                                           dtype=np.uint64)))
        return (prefix[ends] - prefix[starts]) * _powers(_INVERSES[which], len(points))[starts]


def _piece_hashes(pieces: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Both hashes of each piece."""
    points = [_code_points(p) for p in pieces]
    lengths = np.array([len(p) for p in points])
    ends = np.cumsum(lengths)
    starts = ends - lengths
    joined = np.concatenate(points) if points else np.zeros(0, np.uint64)
    return _hashes(joined, starts, ends, 0), _hashes(joined, starts, ends, 1)


def write_segmenter(path: Path, pieces: Sequence[str], scores: Sequence[float], unk: int,
                    controls: Sequence[int]) -> None:
    """The segmenter's arrays for a vocabulary, as an .npz file at `path` (the caller makes it atomic)."""
    first, second = _piece_hashes(pieces)
    usable = np.ones(len(pieces), bool)
    usable[[unk, *controls]] = False
    usable &= np.array([bool(p) for p in pieces])
    ids = np.flatnonzero(usable)
    order = np.argsort(first[ids], kind="stable")
    keys = first[ids][order]
    if np.any(keys[1:] == keys[:-1]):
        raise ValueError("two pieces share a hash; the segmenter cannot hold this vocabulary")
    with open(path, "wb") as f:
        np.savez(f, keys=keys, ids=ids[order].astype(np.int32), check=second, scores=np.asarray(scores, np.float32),
                 unk=np.int64(unk), longest=np.int64(max(len(p) for p in pieces)))


class UnigramSegmenter:
    """Texts (already normalised) -> piece ids; spaces become the metaspace piece marker, as sentencepiece does."""

    def __init__(self, path: Path) -> None:
        with np.load(path) as data:
            self._keys, self._ids, self._check = data["keys"], data["ids"], data["check"]
            self._scores = data["scores"].astype(np.float64)
            self._unk, self._longest = int(data["unk"]), int(data["longest"])
        self._unk_score = float(self._scores[self._ids].min()) - UNK_PENALTY

    def encode(self, texts: Sequence[str]) -> list[list[int]]:
        return [self._segment(t.replace(SPACE, METASPACE)) for t in texts]

    def _matches(self, points: np.ndarray, first: int,
                 last: int) -> tuple[list[int], list[int], list[int], list[float]]:
        """Every (start, end, id, score) of a piece found in the text `points` starting at first..last-1, by start
        then end (positions in the whole text; a piece's hashes do not depend on where it starts)."""
        n = len(points)
        points = points[first:min(n, last + self._longest - 1)]
        starts = np.repeat(np.arange(first, last), self._longest)
        ends = starts + np.tile(np.arange(1, self._longest + 1), last - first)
        inside = ends <= n
        starts, ends = starts[inside], ends[inside]
        hashes = _hashes(points, starts - first, ends - first, 0)
        order = np.argsort(hashes)  # sorted needles: searchsorted walks the table in order (several times faster)
        found = np.empty_like(order)
        found[order] = np.minimum(np.searchsorted(self._keys, hashes[order]), len(self._keys) - 1)
        hit = self._keys[found] == hashes
        starts, ends, ids = starts[hit], ends[hit], self._ids[found[hit]]
        confirmed = self._check[ids] == _hashes(points, starts - first, ends - first, 1)
        starts, ends, ids = starts[confirmed], ends[confirmed], ids[confirmed]
        return starts.tolist(), ends.tolist(), ids.tolist(), self._scores[ids].tolist()

    def _segment(self, text: str) -> list[int]:
        """Viterbi over the whole text; the candidate pieces are found WINDOW starts at a time, so memory stays
        about 30 bytes a character (code points, best scores, back-pointers) however long the text is."""
        n = len(text)
        if not n:
            return []
        points = _code_points(text)
        best = array("d", [0.0]) + array("d", [float("-inf")]) * n
        came_from, piece = array("q", [0]) * (n + 1), array("i", [self._unk]) * (n + 1)
        for first in range(0, n, WINDOW):
            last = min(n, first + WINDOW)
            starts, ends, ids, scores = self._matches(points, first, last)
            k, count = 0, len(starts)
            for i in range(first, last):
                here = best[i]
                single = False
                while k < count and starts[k] == i:
                    end, score = ends[k], here + scores[k]
                    single |= end == i + 1
                    if score > best[end]:
                        best[end], came_from[end], piece[end] = score, i, ids[k]
                    k += 1
                if not single and here + self._unk_score > best[i + 1]:
                    best[i + 1], came_from[i + 1], piece[i + 1] = here + self._unk_score, i, self._unk
        out: list[int] = []
        at = n
        while at > 0:
            if not (piece[at] == self._unk and out and out[-1] == self._unk):
                out.append(piece[at])
            at = came_from[at]
        return out[::-1]
