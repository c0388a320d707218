"""The summary-cost tests' library and server (tests/engine/test_summary_cost.py and, end to end,
tests/e2e/test_summary_cost.py): the 50-page report indexed, a local chat server replying, and a request limit under
what the report's summary takes. Fixtures: import them by name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from tests.support.long_document import write_long_pdf
from tests.support.openai_server import FakeOpenAIServer, serve_replying

SUMMARY_LIMIT = 3  # requests: the report's summary takes 12 (each of its 11 sections, then the summary)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    yield from serve_replying("The report surveys ten regions [1].")


@pytest.fixture
def library(tmp_path: Path) -> tuple[Path, Path]:
    """The report written to `tmp_path / "docs"` and indexed (hash:64) into `tmp_path / "home"`: (that data folder,
    the report)."""
    report = write_long_pdf(tmp_path / "docs" / "report.pdf")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        assert not engine.index([report.parent]).failed
    finally:
        engine.close()
    return tmp_path / "home", report
