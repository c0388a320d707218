"""The fast runtime's word-embedding rows, read from the table file as texts use them."""

from __future__ import annotations

import numpy as np

from desktop_rag.engine.models.embedders.onnx_backend import TableRows


def test_rows_read_on_demand_equal_the_table_across_growth(tmp_path):
    table = np.random.default_rng(1).standard_normal((5000, 8)).astype(np.float16)
    np.save(tmp_path / "table.npy", table)
    rows = TableRows(tmp_path / "table.npy")
    for ids in (np.array([[3, 4999, 3], [0, 7, 7]]), np.arange(0, 5000, 3), np.array([4999, 1, 2])):
        assert np.array_equal(rows.take(ids), table[ids].astype(np.float32))
    assert rows._used == len(set(range(0, 5000, 3)) | {1, 2, 7, 4999})  # each row read once
