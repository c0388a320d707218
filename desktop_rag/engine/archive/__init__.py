"""Collection archives: the archive file (export, reading and checking), its row shapes, importing.

May import `store`, `text` and the base modules; independent of `search` and `answer`.
"""
