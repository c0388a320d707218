"""Storage: the SQLite store (the truth), its pool and writer lock, the FTS5 keyword index, the FAISS vector
cache, collections, conversations, the library's languages and the search scope (restriction).

May import `text` and the base modules; never ingest, search, answer or anything above.
"""
