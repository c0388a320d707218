"""Embedding models: the embedder factory, the model catalog and downloader, and the embedder backends.

May import `text` and the base modules; independent of `store` (models know nothing of a library).
"""
