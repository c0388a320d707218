"""Documents as they are on disk now: locating a cited passage in its file, rendering PDF pages.

May import `ingest` (loaders, chunking, hashes), `text` and the base modules.
"""
