"""The texts of the errors the engine raises to a front end, in English and Chinese (the table `messages.TEXTS`
includes them): "error.<code>" for `SomeError.coded(code, **values)` (errors.py), and the phrases such a text
quotes ("phrase.<name>", given as `messages.Phrase` values). One module per area of the engine; `system` words the
operating system's and the network's reasons (`system_errors`).

Values are plain text a file, a server or a model may supply; a text names each of its values in a comment when
the name does not say it.
"""

from __future__ import annotations

from desktop_rag.engine.error_texts import answers, indexing, library, models, reading, review, server, system

ERROR_TEXTS: dict[str, dict[str, str]] = {**reading.TEXTS, **models.TEXTS, **library.TEXTS, **answers.TEXTS,
                                   **review.TEXTS, **indexing.TEXTS, **server.TEXTS, **system.TEXTS}
