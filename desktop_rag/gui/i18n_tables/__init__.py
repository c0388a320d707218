"""The interface's texts, English and Simplified Chinese, by area of the window: one table of each area, merged into
the one lookup (gui/i18n.py's `tr`)."""

from __future__ import annotations

from desktop_rag.gui.i18n_tables import chat, library, review, settings, viewer, window

TABLES: tuple[dict[str, tuple[str, str]], ...] = (window.TEXT, library.TEXT, chat.TEXT, review.TEXT, settings.TEXT,
                                                  viewer.TEXT)
