"""The numpy Unigram segmenter on a vocabulary small enough to check by hand."""

from __future__ import annotations

import pytest

from desktop_rag.engine.models.unigram import UnigramSegmenter, write_segmenter

PIECES = ["<s>", "</s>", "<unk>", "\u2581", "a", "b", "ab", "\u2581ab", "c", "abc", "<s>x"]
SCORES = [0.0, 0.0, 0.0, -2.0, -3.0, -3.0, -2.5, -1.0, -4.0, -9.0, -0.1]


@pytest.fixture
def segmenter(tmp_path) -> UnigramSegmenter:
    path = tmp_path / "seg.npz"
    write_segmenter(path, PIECES, SCORES, unk=2, controls=(0, 1))
    return UnigramSegmenter(path)


def test_the_best_scoring_split_wins(segmenter):
    assert segmenter.encode([" ab"]) == [[7]]  # "▁ab" (-1.0) beats "▁"+"ab" (-4.5)
    assert segmenter.encode(["abc"]) == [[6, 8]]  # "ab"+"c" (-6.5) beats "abc" (-9.0)
    assert segmenter.encode(["ba", ""]) == [[5, 4], []]


def test_unknown_characters_fuse_into_one_unknown_piece(segmenter):
    assert segmenter.encode(["a\u4e00\u4e01b"]) == [[4, 2, 5]]


def test_unknown_and_control_pieces_are_never_matched_in_text(segmenter):
    assert 0 not in segmenter.encode(["<s>"])[0] and segmenter.encode(["<unk>"]) == [[2]]


def test_a_vocabulary_whose_hashes_collide_is_refused(tmp_path):
    with pytest.raises(ValueError):
        write_segmenter(tmp_path / "seg.npz", ["<unk>", "a", "a"], [0.0, -1.0, -1.0], unk=0, controls=())
