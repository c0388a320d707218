"""Fixtures of the command line's tests."""

from __future__ import annotations

import pytest

from tests.support import hash_cli


@pytest.fixture
def cli_model(monkeypatch):
    """A local model server the commands run by `hash_cli.run_cli` call, with `hash_cli.CLI_KEY`."""
    yield from hash_cli.serve_the_cli(monkeypatch, hash_cli.CLI_KEY)
