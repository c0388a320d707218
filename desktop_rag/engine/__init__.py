"""The local engine: loading, chunking, storage, retrieval and answering. Never imports Qt.

This module is the engine's public surface: the GUI, the CLI and the MCP server import only the names below
(and `desktop_rag.config`); everything else is internal and may change. Names load on first use, so importing
one (say `Hit`) does not import the whole engine. The stages behind it, bottom to top (each imports only those
below it; `pyproject.toml` holds the rules and a test enforces them):

- base: `errors`, `paths`, `file_types`; below them `reasons` (a failure or a note as codes and values, stored
  and shown in either language) and the texts: `messages`, `error_texts/`
- `text/`: terms, keyword query/index text, language detection
- `store/` | `models/`: the library behind one seam (SQLite + FAISS on this computer, or PostgreSQL + pgvector on
  a server), collections, conversations, the values it takes and gives (`store/values.py`: passages, status,
  turns, the review log's answers, file and source rows) | embedders and model files
- `ingest/`: scanning, parsing, cleaning, chunking, the index run, re-embedding; a reader's document
  (`documents.py`), an index run's report and events (`reports.py`)
- `document/`: locating a passage in its file, rendering PDF pages
- `search/` | `answer/` | `archive/`: retrieval and fusion | prompts, the LLM, answers and their events
  (`events.py`) | collection archives
- `review/`: the review log's grades and signals, the user's labelled questions measured (issue 39), as one
  object, `Engine.review`
- `engine.py`: the facade, `Engine`
"""

from __future__ import annotations

import importlib

_MODULES = {  # public name -> the module (under desktop_rag.engine) that defines it
    "Engine": "engine",
    "writable_paths": "store.backends",
    **dict.fromkeys(("Section", "ParsedDocument"), "ingest.documents"),
    **dict.fromkeys(("IndexReport", "FileEvent", "Progress"), "ingest.reports"),
    **dict.fromkeys(("ChunkDraft", "Hit", "FailedFile", "IndexStatus", "SentPrompt", "ChatTurn", "ANSWER_FAILED",
                     "GRADES", "LoggedAnswer", "FileRecord", "SourceRecord", "DEFAULT_COLLECTION"), "store.values"),
    **dict.fromkeys(("SourcesEvent", "TokenEvent", "DoneEvent", "ErrorEvent", "AnswerEvent", "SummaryStep",
                     "SummaryPlan", "STOPPED"), "answer.events"),
    **dict.fromkeys(("ReviewStats", "ReviewWeek", "EvalScores", "EvalReport", "StaleLabel"), "review.reports"),
    **dict.fromkeys(("DesktopRagError", "LoadError", "ModelMismatchError", "UsageError", "ConfirmationNeeded",
                     "LibraryBusyError", "DiskFullError", "PASS_THROUGH", "contain_panics", "error_text"), "errors"),
    **dict.fromkeys(("READERS", "TYPE_NAMES", "supported_types", "suffix_patterns", "is_supported", "type_labels",
                     "location_text", "reader_for", "PAGES", "TEXT", "view_of", "is_paged"), "file_types"),
    **dict.fromkeys(("is_inside", "is_ignored_name", "safe_file_name"), "paths"),
    **dict.fromkeys(("skipped_summary", "skipped_links", "environment_language", "locale_language", "counted",
                     "Counted", "Localised", "WINDOW", "worded"),
                    "messages"),
    "Reason": "reasons",
    "os_reason": "system_errors",
    "Collection": "store.collections",
    **dict.fromkeys(("query_terms", "term_spans"), "text.keyword"),
    **dict.fromkeys(("display_width", "is_wide"), "text.columns"),
    "caseless_find": "text.caseless",
    "caseless_fold": "text.caseless",
    **dict.fromkeys(("address_notice", "key_problem"), "endpoint"),
    **dict.fromkeys(("PRESETS", "config_problem", "plain_http_warning", "resolve_llm_config", "sends_in_clear"),
                    "answer.llm_config"),
    "check_connection": "answer.llm",
    "StreamedAnswer": "answer.streamed_answer",
    "summary_shaped": "answer.summary_intent",
    "query_lines": "review.labelled",
    **dict.fromkeys(("CHANGED", "MISSING", "NOT_FOUND", "PARTIAL", "RECOGNISED", "STORED", "UNKNOWN", "IndexedFile",
                     "Location", "Carrier", "Reader", "find_in_pdf", "locate", "open_pdf"), "document.locate"),
    **dict.fromkeys(("PdfFile", "PageImage"), "document.pdf_render"),
    "Rereader": "document.reread",
    **dict.fromkeys(("PdfPages", "RemotePdf"), "document.pdf_child"),
    "ParseCancelled": "ingest.parsing",
    "needs_password": "ingest.loaders.pdf",
    "valid_text": "ingest.valid_text",
    **dict.fromkeys(("markdown_tables", "MarkdownTable"), "ingest.tables"),
    "MULTILINGUAL_MODEL": "models.embedding",
    "LocalServer": "store.postgres.local_server",
    **dict.fromkeys(("ServerUrl", "is_server_url", "parse_server_url", "save_keyring_password", "PASSWORD_VARIABLE"),
                    "store.postgres.url"),
    "check_server": "store.postgres.check",
}
_SUBMODULES = {"model_catalog": "models.catalog", "model_download": "models.download"}  # used as namespaces

__all__ = sorted([*_MODULES, *_SUBMODULES])


def __getattr__(name: str):
    if name in _SUBMODULES:
        value = importlib.import_module(f"{__name__}.{_SUBMODULES[name]}")
    elif name in _MODULES:
        value = getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return value  # not cached here: a test that patches the defining module is seen through the surface


def __dir__() -> list[str]:
    return __all__
