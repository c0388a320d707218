"""The viewer's texts: its keys are i18n's `viewer.*` entries (one table for every string of the app)."""

from __future__ import annotations

from desktop_rag.gui import i18n


def tr(key: str, **values: object) -> str:
    """The text for `viewer.<key>` in the app's current language."""
    return i18n.tr(f"viewer.{key}", **values)
