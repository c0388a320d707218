"""Desktop RAG: a private knowledge base over your own documents, with cited answers."""

__version__ = "0.1.0"
