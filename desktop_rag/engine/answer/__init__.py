"""Answering: the prompt, the LLM client and its configuration, streamed answers, citations, extractive answers.

May import `document`, `store`, `text` and the base modules; independent of `search` and `archive`.
"""
