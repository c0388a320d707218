"""Widgets: main window, library, chat, sources, settings."""
