"""Search: hybrid retrieval (keyword + dense), the fusion rule, and query translation.

May import `store`, `models`, `text` and the base modules; independent of `answer` and `archive`.
"""
