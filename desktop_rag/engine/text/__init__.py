"""Text: words and scripts (CJK ranges, stopwords, the stemmer), keyword query/index text, language detection.

Owns pure functions over strings. May import only the engine's base modules (types, errors, paths, file_types).
"""
