"""Ingest: scanning sources, parsing files in a memory-capped child (`loaders/`), cleaning, chunking, the
ingest run that writes chunks and vectors, and re-embedding after a model switch.

May import `store`, `models`, `text` and the base modules.
"""
