"""bench.extractive's tuning questions (`--dev N`) never come from the reported sample, whatever N is."""

from __future__ import annotations

import pytest

from bench import qa_sets


@pytest.mark.parametrize("size", [150, 400, 5000])
def test_a_dev_sample_of_any_size_leaves_the_reported_sample_out(monkeypatch, size):
    rows = list(range(1190))
    reported = qa_sets._sample(rows, 150)
    monkeypatch.setattr(qa_sets, "dev", size)
    tuning = qa_sets._sample(rows, 150)
    assert len(reported) == 150 and len(set(reported)) == 150
    assert len(tuning) == min(size, 1190 - 150) and not set(tuning) & set(reported)


def test_a_set_no_larger_than_the_sample_is_used_whole(monkeypatch):
    monkeypatch.setattr(qa_sets, "dev", 400)
    assert qa_sets._sample(list(range(14)), 150) == list(range(14))
