"""The in-app document viewer: PDF pages with the passage highlighted, or a document's text scrolled to it."""

from desktop_rag.gui.views.viewer.window import ViewerWindow

__all__ = ["ViewerWindow"]
