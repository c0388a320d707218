"""Which models' replies open with thinking, kept across sessions in the config folder and learned by the engine
from every answer a model writes (the window, `ask` and the MCP server alike). Thinking their chat template began (a
reply holding only a lone `</think>`: `thinks`): a reply stopped, cut or failed before such a model's `</think>` is
thinking, never its answer (`Answerer`), and the window holds such a model's answers until their thinking ends. Or
a `<think>` block opening the reply (BLOCK: `reasoning.ThinkFilter` takes it out as it streams, so `thinks` is
False and its answers stream at once). Either way the model spends tokens thinking first (`thinks_first`): its side
requests get room for that from the start (answer/side_requests.py).

A model is its server's address as messages quote it (no query, no user:password) and its name, hashed: the file
holds neither, nor any key. Read and written on the thread that answers (never the GUI's)."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from desktop_rag.config import AppPaths
from desktop_rag.private_files import atomic_write_text, private_dir
from desktop_rag.engine.answer.reasoning import MAX_THINKING_CHARS, answer_start, unfinished_thinking, without_thinking

log = logging.getLogger(__name__)
MAX_MODELS = 64  # the models last seen are kept; an older one is learned once more if it comes back
MAX_BYTES = 16 * 1024  # a larger file is not ours (64 entries take about 3 KB): it is ignored, then replaced
_KEY_CHARS = 32
BLOCK = "block"  # noted for a model whose replies open with a `<think>` block
Noted = bool | str  # True: thinking its template opened; False: none seen; BLOCK


def models_file(paths: AppPaths) -> Path:
    return paths.config_dir / "thinking_models.json"


def model_key(endpoint: str, model: str) -> str:
    """The model `model` on the server at `endpoint` (its address as messages quote it), as a hash: the file names
    neither."""
    return hashlib.sha256(f"{endpoint}\n{model}".encode("utf-8", "replace")).hexdigest()[:_KEY_CHARS]


def read_models(path: Path) -> dict[str, Noted]:
    """The models stored, oldest first: how each thinks. {} for a missing, oversized or unreadable file, and an
    entry that is not a key and a bool (or BLOCK) is skipped."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return {}
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(stored, dict):
        return {}
    return {key: thinks for key, thinks in list(stored.items())[-MAX_MODELS:]
            if len(key) == _KEY_CHARS and (isinstance(thinks, bool) or thinks == BLOCK)}


def write_model(path: Path, key: str, thinks: Noted) -> None:
    """Note whether `key` thinks over the file as it is now (another process's models stay), as the newest entry;
    only the last MAX_MODELS are kept."""
    models = read_models(path)
    models.pop(key, None)
    models[key] = thinks
    private_dir(path.parent)
    atomic_write_text(path, json.dumps(dict(list(models.items())[-MAX_MODELS:])))


class ThinkingModel:
    """One model's record in the file at `path`: `thinks` (None: not known yet), `thinks_first`, and `learn` from
    its reply."""

    def __init__(self, path: Path, endpoint: str, model: str) -> None:
        self._path, self._key = path, model_key(endpoint, model)

    def _noted(self) -> Noted | None:
        return read_models(self._path).get(self._key)

    def thinks(self) -> bool | None:
        """Whether its replies open with thinking its chat template began (None: not known yet)."""
        noted = self._noted()
        return None if noted is None else noted is True

    def thinks_first(self) -> bool:
        """Whether its replies are known to open with thinking, in either form."""
        return self._noted() in (True, BLOCK)

    def learn(self, reply: str, complete: bool, opened: bool = False, bound: int = MAX_THINKING_CHARS) -> None:
        """Note what `reply` shows: thinking taken back always tells, as does a `<think>` block that `opened` it
        (BLOCK, unless the template's thinking was seen: that one also holds the window); a reply without either
        only when `complete` (not stopped, cut or failed: its thinking may not have ended) and nothing is noted."""
        known = self._noted()
        if answer_start(reply, bound=bound):
            thinks: Noted | None = True
        elif opened:
            thinks = None if known is True else BLOCK
        else:
            thinks = False if complete and known is None else None
        if thinks is None or thinks == known:
            return
        try:
            write_model(self._path, self._key, thinks)
        except OSError as exc:  # nothing depends on the file but how an answer is held and a stopped one read
            log.warning("Could not note a model's thinking: %s", exc)


def finished_reply(model: ThinkingModel | None, known: bool | None, reply: str, whole: bool,
                   in_thought: bool = False, bound: int = MAX_THINKING_CHARS, opened: bool = False
                   ) -> tuple[str, bool]:
    """A model's streamed `reply` once it ended (`whole`: not stopped, cut or failed), noted in `model`'s record
    (`known`: what it held before): the answer without thinking, and whether the reply ended before its thinking
    did, when it holds no answer at all: inside the `<think>` block that opened it (`in_thought`,
    `reasoning.ThinkFilter.thinking`), whatever the model is known to do, or, from a model known to think, before
    its lone `</think>` (`reasoning.unfinished_thinking`). A whole reply without a lone `</think>` is its answer even
    from a model known to think: its server may open no thinking now, and hiding it would hide each of its answers.
    `bound`: how far into the reply a lone `</think>` may be (`LLMConfig.thinking_chars`); `opened`: a `<think>`
    block opened it (`reasoning.ThinkFilter.opened`)."""
    if model is not None:
        model.learn(reply, whole, opened, bound)
    unfinished = not whole and (in_thought or unfinished_thinking(reply, known, bound))
    return ("" if unfinished else without_thinking(reply, bound)), unfinished
