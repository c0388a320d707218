"""What a model server's successful reply holds: a stream's pieces, or one whole completion sent in place of the
stream asked for (a server that ignores `stream`); a web page or a message without an answer is a `ReplyProblem`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

_MAX_BODY = 16 * 1024 * 1024  # a whole reply in place of a stream is read up to this size
_PAGES = ("text/html", "application/xhtml+xml")


class ReplyProblem(Exception):
    """A 200 reply that is no model's answer: `what` it was (a content type) or the server's own `detail`."""

    def __init__(self, what: str = "", detail: str = "") -> None:
        super().__init__(detail or what)
        self.what = what
        self.detail = detail


def streamed_pieces(response: Any) -> Iterator[tuple[str, str | None]]:
    """(text, finish_reason) of each piece of the SDK's `Stream`; a whole completion in its place gives one piece.
    Raises ReplyProblem for a web page (a wrong base URL, a login portal) or JSON without an answer."""
    kind = _content_type(getattr(response, "response", None))
    if kind in _PAGES:
        raise ReplyProblem(what=kind)
    if kind == "application/json" or kind.endswith("+json"):  # (or a stream labelled so: read whole)
        yield _whole(_body(response.response, kind), kind)
        return
    for chunk in response:
        choices = getattr(chunk, "choices", None)
        if isinstance(choices, list) and choices:  # (a chunk's fields are the server's: any type, or none)
            delta = getattr(choices[0], "delta", None)
            yield text_of(getattr(delta, "content", None)), _finish(getattr(choices[0], "finish_reason", None))


def text_of(content: Any) -> str:
    """A message's or a delta's text: a string, or the text parts of a list of parts; anything else none."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part["text"] for part in content if isinstance(part, dict)
                       and part.get("type", "text") == "text" and isinstance(part.get("text"), str))
    return ""


def _finish(reason: Any) -> str | None:
    return reason if isinstance(reason, str) else None


def completion_piece(result: Any) -> tuple[str, str | None]:
    """(text, finish_reason) of a completion (the SDK's object or its JSON); ReplyProblem when it holds none."""
    if isinstance(result, str):  # the SDK's answer for a body that is not JSON: a stream sent anyway, or a page
        events = _events(result)
        if events is None:
            raise ReplyProblem(what="text/html" if result.lstrip()[:1] == "<" else "text/plain")
        return events
    data = result.model_dump(warnings=False) if hasattr(result, "model_dump") else result  # (fields of any type)
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ReplyProblem(detail=_said(data))
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return text_of(content), _finish(choices[0].get("finish_reason"))


def _content_type(response: Any) -> str:
    headers = getattr(response, "headers", None)
    value = headers.get("content-type", "") if headers is not None else ""
    return value.split(";", 1)[0].strip().lower()


def _body(response: Any, kind: str) -> str:
    """A reply's body read up to _MAX_BODY bytes."""
    body = bytearray()
    for part in response.iter_bytes():
        body += part
        if len(body) > _MAX_BODY:
            raise ReplyProblem(what=kind)
    return body.decode("utf-8", "replace")


def _whole(body: str, kind: str) -> tuple[str, str | None]:
    """(text, finish_reason) of a whole reply labelled JSON: a completion, or a stream's events."""
    try:
        return completion_piece(json.loads(body))
    except ValueError:
        events = _events(body)
    if events is None:
        raise ReplyProblem(what=kind)
    return events


def _events(body: str) -> tuple[str, str | None] | None:
    """The text and finish reason of a stream read whole (a server that streams whatever was asked, or labels its
    stream JSON); None when the body is no stream. A line that is not a chunk is passed over."""
    if not body.lstrip().startswith("data:"):
        return None
    texts, finish = [], None
    for line in body.splitlines():
        data = line[5:].strip() if line.startswith("data:") else ""
        try:
            chunk = json.loads(data) if data and data != "[DONE]" else None
        except ValueError:
            continue
        choices = chunk.get("choices") if isinstance(chunk, dict) else None
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            delta = choices[0].get("delta")
            texts.append(text_of(delta.get("content") if isinstance(delta, dict) else None))
            finish = _finish(choices[0].get("finish_reason")) or finish
    return "".join(texts), finish


def _said(data: Any) -> str:
    """The server's own words in a reply without an answer: its error's message, `message` or `msg`."""
    if isinstance(data, dict):
        error = data.get("error")
        for value in (error.get("message") if isinstance(error, dict) else error, data.get("message"), data.get("msg")):
            if isinstance(value, str) and value.strip():
                return value
        data = {k: v for k, v in data.items() if v is not None}
    return json.dumps(data, ensure_ascii=False, default=str)
