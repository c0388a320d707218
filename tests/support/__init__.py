"""Test helpers shared by several test packages (local servers, fixtures as plain functions)."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the working copy: the package, tests, resources and pyproject.toml
DATA = REPO / "tests" / "data"  # the fixture files (tests/data/make_fixtures.py)
