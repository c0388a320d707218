"""Every public name of `desktop_rag.engine` resolves to the module the table names (a module moved or renamed
without the table following fails here, not in the window's first import)."""

from __future__ import annotations

import importlib

import desktop_rag.engine as engine


def test_every_public_name_resolves_where_the_table_says():
    for name, module in engine._MODULES.items():
        defined = importlib.import_module(f"desktop_rag.engine.{module}")
        assert hasattr(defined, name), f"{name} is not in desktop_rag.engine.{module}"
        assert getattr(engine, name) is getattr(defined, name)
