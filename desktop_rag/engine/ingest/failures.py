"""Why one file failed in an index run, as the run records it: a reader's LoadError as raised, anything else as the
step that failed with the library's words (logged with its traceback: a bug to fix or a library's limit to know)."""

from __future__ import annotations

import logging

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import failure_words

log = logging.getLogger(__name__)


def step_failure(exc: BaseException, step: str) -> LoadError:
    """The reason a file failed: a LoadError as raised, anything else as "`step` failed" with the library's words
    (logged with its traceback: it is a bug to fix or a library's limit to know)."""
    if isinstance(exc, LoadError):
        return exc
    log.warning("Indexing one file failed at %s", step, exc_info=exc)
    return LoadError.coded(step, error=failure_words(exc))
