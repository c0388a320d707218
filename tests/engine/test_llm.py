"""LLM client against a real local OpenAI-compatible server: streaming, errors, retries, secrecy."""

from __future__ import annotations

import json
import logging
import threading
import time
import traceback
import warnings

import pytest

from desktop_rag.config import Settings
from desktop_rag.engine.answer.llm import LLMClient, check_connection
from desktop_rag.engine.answer.llm_errors import LLMError
from desktop_rag.engine.answer.llm_config import PRESETS, LLMConfig, config_problem, resolve_llm_config
from desktop_rag.engine.answer.reasoning import ThinkFilter
from tests.support.openai_server import FakeOpenAIServer, run_openai_server
from tests.support.unreachable import closed_port_url

KEY = "sk-test-SECRET1234567890abcdefXYZ"


@pytest.fixture
def server():
    with run_openai_server() as srv:
        yield srv


def make_config(server: FakeOpenAIServer, **changes) -> LLMConfig:
    values = dict(
        base_url=server.base_url,
        model="fake-model",
        api_key=KEY,
        provider="custom",
        timeout_s=5.0,
        max_retries=2,
        retry_base_delay_s=0.01,
        retry_max_delay_s=0.05,
    )
    values.update(changes)
    return LLMConfig(**values)


MESSAGES = [{"role": "user", "content": "hi"}]


def error_of(client: LLMClient) -> LLMError:
    with pytest.raises(LLMError) as info:
        list(client.stream(MESSAGES))
    return info.value


# ---- streaming and completion ----


def test_stream_yields_tokens_in_order_and_skips_empty_chunks(server):
    server.tokens = ["The", " answer", " is", " 42", "."]
    tokens = list(LLMClient(make_config(server)).stream(MESSAGES))
    assert tokens == ["The", " answer", " is", " 42", "."]
    assert all(tokens)


def test_stream_sends_model_messages_temperature_and_key(server):
    list(LLMClient(make_config(server, temperature=0.2)).stream(MESSAGES))
    (req,) = server.chat_requests()
    assert req.body["model"] == "fake-model"
    assert req.body["messages"] == MESSAGES
    assert req.body["stream"] is True
    assert req.body["temperature"] == pytest.approx(0.2)
    assert req.headers["authorization"] == f"Bearer {KEY}"


def test_complete_returns_the_whole_reply(server):
    server.reply = "Bonjour tout le monde"
    assert LLMClient(make_config(server)).complete(MESSAGES) == "Bonjour tout le monde"
    assert server.chat_requests()[0].body.get("stream") in (None, False)


@pytest.mark.parametrize("reply, partial, says", [
    ("Section one covers", "Section one covers", "The model stopped at its limit of 300 tokens for one reply"),
    ("<think>Let me see", "", "The model spent its whole limit of 300 tokens for one reply reasoning"),
])
def test_a_whole_reply_the_server_stopped_at_max_tokens_is_not_taken_for_whole(server, reply, partial, says):
    """finish_reason "length" on a request that does not stream (a section's summary) was ignored: the cut reply
    was used, and stored, as a whole one."""
    server.reply, server.finish_reason = reply, "length"
    with pytest.raises(LLMError) as info:
        LLMClient(make_config(server)).complete(MESSAGES, max_tokens=300)
    assert info.value.kind == "length" and info.value.partial == partial and str(info.value).startswith(says)
    assert len(server.chat_requests()) == 1  # not retried


def test_chinese_tokens_survive_streaming(server):
    server.tokens = ["年假", "是", "十五天", "。"]
    assert "".join(LLMClient(make_config(server)).stream(MESSAGES)) == "年假是十五天。"


# ---- error mapping ----


def test_each_failure_has_its_own_kind_and_message(server):
    results: dict[str, LLMError] = {}

    server.api_key = "sk-the-right-one-0000000000"
    results["auth"] = error_of(LLMClient(make_config(server)))
    server.api_key = None

    results["model_not_found"] = error_of(LLMClient(make_config(server, model="no-such-model")))

    server.fail_next(429, times=10)
    results["rate_limit"] = error_of(LLMClient(make_config(server, max_retries=0)))
    server._failures.clear()

    server.fail_next(500, times=10, message="upstream exploded")
    results["server"] = error_of(LLMClient(make_config(server, max_retries=0)))
    server._failures.clear()

    results["unreachable"] = error_of(LLMClient(make_config(server, base_url=closed_port_url(), max_retries=0)))

    results["no_key"] = error_of(LLMClient(make_config(server, base_url="https://api.example.com/v1", api_key="")))

    server.cut_after = 2
    results["cut"] = error_of(LLMClient(make_config(server)))
    server.cut_after = None

    for kind, err in results.items():
        assert err.kind == kind, (kind, err)
    messages = [str(e) for e in results.values()]
    assert len(set(messages)) == len(messages)
    assert "rejected" in str(results["auth"]) and "401" in str(results["auth"])
    assert "no-such-model" in str(results["model_not_found"])
    assert "rate-limiting" in str(results["rate_limit"])
    assert "internal error" in str(results["server"]) and "upstream exploded" in str(results["server"])
    assert "Could not reach" in str(results["unreachable"])
    assert "No API key" in str(results["no_key"])
    assert "cut off" in str(results["cut"])


def test_forbidden_is_an_auth_error(server):
    server.fail_next(403, message="Your region is not supported")
    err = error_of(LLMClient(make_config(server)))
    assert err.kind == "auth" and "403" in str(err) and "region" in str(err)


def test_model_not_found_code_on_other_status(server):
    server.fail_next(400, code="model_not_found", message="Model does not exist")
    assert error_of(LLMClient(make_config(server))).kind == "model_not_found"


@pytest.mark.parametrize("said, blamed", [
    ("404 page not found", "There is no chat endpoint at {url} (HTTP 404). Check the base URL in Settings"),
    ('model "qwen9" not found, try pulling it first', "The model 'fake-model' was not found"),
    ("模型不存在", "The model 'fake-model' was not found"),
])
def test_a_404_blames_the_model_only_when_the_server_says_so(server, said, blamed):
    """A base URL without /v1 (or with /chat/completions pasted on) got "The model 'x' was not found ... Check the
    model name": the person checked a model name that was right."""
    server.fail_next(404, message=said)
    err = error_of(LLMClient(make_config(server)))
    assert str(err).startswith(blamed.format(url=server.base_url)) and said in str(err)


def test_no_key_sends_nothing(server):
    client = LLMClient(make_config(server, base_url="https://api.example.com/v1", api_key=""))
    with pytest.raises(LLMError) as info:
        client.complete(MESSAGES)
    assert info.value.kind == "no_key"
    assert server.requests == []


def test_timeout_when_server_hangs(server):
    server.hang = True
    started = time.monotonic()
    err = error_of(LLMClient(make_config(server, timeout_s=0.3, max_retries=1)))
    assert err.kind == "timeout" and "did not answer" in str(err)
    assert time.monotonic() - started < 5
    assert len(server.chat_requests()) == 2  # one retry


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_timeout_after_retries_says_the_tries_and_the_time_they_took(server, language):
    """It said "did not answer within 0.3 s" after three tries and a second or more (at the default 60 s: "within
    60 s" after more than three minutes)."""
    from desktop_rag.engine import error_text

    server.hang = True
    started = time.monotonic()
    err = error_of(LLMClient(make_config(server, timeout_s=0.3, max_retries=2)))
    waited = time.monotonic() - started
    assert err.kind == "timeout" and len(server.chat_requests()) == 3
    said = error_text(err, language)
    seconds = float(said.split("0.3 s each, " if language == "en" else "总计 ")[1].split(" ")[0])
    assert abs(seconds - waited) < 0.5 and seconds >= 0.9
    assert said.startswith({"en": "The model server 127.0.0.1:", "zh": "模型服务器 127.0.0.1:"}[language])
    assert {"en": "3 tries of 0.3 s each", "zh": "共尝试 3 次，每次等待 0.3 秒"}[language] in said
    with pytest.raises(LLMError) as once:  # one try (an extra that never retries a timeout): its limit is the time
        LLMClient(make_config(server, timeout_s=0.3)).complete(MESSAGES, retry_timeout=False)
    assert "did not answer within 0.3 s" in str(once.value)


def test_cut_stream_keeps_partial_text(server):
    server.tokens = ["One", " two", " three", " four", " five"]
    server.cut_after = 3
    err = error_of(LLMClient(make_config(server)))
    assert err.kind == "cut"
    assert err.partial == "One two three"
    assert "cut off" in str(err)
    assert len(server.chat_requests()) == 1  # never retried after tokens were yielded


def test_stall_mid_stream_is_a_cut_with_partial(server):
    server.tokens = ["Alpha", " beta", " gamma"]
    server.hang_after = 2
    err = error_of(LLMClient(make_config(server, timeout_s=0.3)))
    assert err.kind == "cut" and err.partial == "Alpha beta"
    assert len(server.chat_requests()) == 1


# ---- retries ----


def test_transient_errors_are_retried_then_succeed(server):
    server.fail_next(500, times=1)
    server.fail_next(429, times=1)
    server.reply = "ok then"
    assert "".join(LLMClient(make_config(server, max_retries=2)).stream(MESSAGES)) == "ok then"
    assert len(server.chat_requests()) == 3


def test_a_reply_cut_off_inside_its_think_block_is_retried_and_the_retry_read_from_its_start(server):
    """Nothing was shown of a reply cut off inside its opening `<think>` block, so it is retried; the retry's reply
    (here without thinking) is read anew: its answer is not taken for the first reply's unfinished thinking."""
    replies = iter(["<think> Let me weigh it at length", "Twenty-five days."])  # the first cut after 2 tokens
    server.reply_for, server.cut_after = lambda body: next(replies), 2
    reading = ThinkFilter()
    assert "".join(LLMClient(make_config(server)).stream(MESSAGES, thinking=reading)) == "Twenty-five days."
    assert len(server.chat_requests()) == 2 and not reading.thinking


def test_a_rate_limit_asking_a_short_wait_is_retried_after_it(server):
    """Retry-After was ignored: the retry came after the backoff's 0.01 s, while the server asked for 0.5 s."""
    client = LLMClient(make_config(server, retry_max_delay_s=1.0))
    list(client.stream(MESSAGES))  # (the SDK made and its connection opened once: what is timed is the wait)
    server.fail_next(429, times=1, headers={"Retry-After": "0.5"})
    started = time.monotonic()
    assert "".join(client.stream(MESSAGES)) == "".join(server.reply_tokens())
    assert len(server.chat_requests()) == 3 and time.monotonic() - started >= 0.5


@pytest.mark.parametrize("call", ["stream", "complete"])
def test_a_rate_limit_asking_a_long_wait_says_how_long_without_retrying(server, call):
    """Retry-After: 30 got three requests in a second and "Wait a minute and try again"."""
    server.fail_next(429, times=5, headers={"Retry-After": "30"}, message="Rate limit reached")
    client = LLMClient(make_config(server, retry_max_delay_s=8.0))
    with pytest.raises(LLMError) as info:
        list(client.stream(MESSAGES)) if call == "stream" else client.complete(MESSAGES)
    assert info.value.kind == "rate_limit" and len(server.chat_requests()) == 1
    assert "asks to wait 30 s before the next one" in str(info.value)


def test_retries_are_bounded(server):
    server.fail_next(503, times=10)
    with pytest.raises(LLMError) as info:
        LLMClient(make_config(server, max_retries=2)).complete(MESSAGES)
    assert info.value.kind == "server"
    assert len(server.chat_requests()) == 3


def test_auth_and_model_errors_are_not_retried(server):
    server.fail_next(401, times=5, code="invalid_api_key")
    assert error_of(LLMClient(make_config(server, max_retries=3))).kind == "auth"
    assert len(server.chat_requests()) == 1
    server._failures.clear()
    assert error_of(LLMClient(make_config(server, model="nope", max_retries=3))).kind == "model_not_found"
    assert len(server.chat_requests()) == 2


def test_backoff_grows_exponentially(server):
    server.fail_next(500, times=3)
    started = time.monotonic()
    LLMClient(make_config(server, max_retries=3, retry_base_delay_s=0.05, retry_max_delay_s=1)).complete(MESSAGES)
    assert time.monotonic() - started >= 0.05 + 0.1 + 0.2 - 0.02
    assert len(server.chat_requests()) == 4


# ---- cancel ----


def test_cancel_mid_stream_stops_promptly_and_closes(server):
    server.tokens = [f" t{i}" for i in range(40)]
    server.token_delay = 0.05  # 2 s for the whole answer
    cancel = threading.Event()
    got: list[str] = []
    started = time.monotonic()
    for token in LLMClient(make_config(server)).stream(MESSAGES, cancel):
        got.append(token)
        if len(got) == 3:
            cancel.set()
    assert got == [" t0", " t1", " t2"]
    assert time.monotonic() - started < 1.0
    (req,) = server.chat_requests()
    assert req.finished.wait(3)
    assert not req.completed and req.tokens_sent < 40


def test_cancel_before_start_sends_nothing(server):
    cancel = threading.Event()
    cancel.set()
    assert list(LLMClient(make_config(server)).stream(MESSAGES, cancel)) == []
    assert server.chat_requests() == []


# ---- the key never leaks ----


def _assert_no_key(text: str) -> None:
    assert KEY not in text
    assert KEY[8:] not in text  # not even the secret part


def test_key_never_appears_in_errors_reprs_logs_or_output(server, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    config = make_config(server, max_retries=1)
    client = LLMClient(config)
    server.api_key = "sk-the-right-one-0000000000"  # the 401 message echoes the key we sent
    auth = error_of(client)
    server.api_key = None
    server.fail_next(500, times=5, message=f"proxy failed for Authorization: Bearer {KEY}")
    boom = error_of(client)
    server._failures.clear()
    server.cut_after = 1
    cut = error_of(client)
    for err in (auth, boom, cut):
        _assert_no_key(str(err))
        _assert_no_key(repr(err))
        _assert_no_key(repr(err.args))
        _assert_no_key("".join(traceback.format_exception(err)))
    assert auth.kind == "auth" and boom.kind == "server"
    _assert_no_key(str(config) + repr(config) + repr(client))
    _assert_no_key(caplog.text)
    for record in caplog.records:
        _assert_no_key(record.getMessage())
    out = capsys.readouterr()
    _assert_no_key(out.out + out.err)


# ---- configuration ----


def test_config_repr_hides_key_and_is_frozen():
    config = LLMConfig(base_url="https://api.openai.com/v1", model="gpt-4o-mini", api_key=KEY)
    assert KEY not in repr(config) and KEY not in str(config)
    assert config.temperature == 0.2
    with pytest.raises(AttributeError):
        config.model = "other"  # type: ignore[misc]


def test_nothing_configured_means_extractive_mode():
    assert resolve_llm_config(Settings(), env={}) is None
    assert "No language model is configured" in str(config_problem(Settings(), env={}))


def test_preset_defaults_and_env_key():
    config = resolve_llm_config(Settings(llm_provider="deepseek"), env={"OPENAI_API_KEY": KEY})
    assert config is not None
    assert (config.base_url, config.model, config.provider) == ("https://api.deepseek.com/v1", "deepseek-chat",
                                                                "deepseek")
    assert config.api_key == KEY
    zhipu = resolve_llm_config(Settings(llm_provider="zhipu"), env={"OPENAI_API_KEY": KEY})
    assert zhipu.base_url == "https://open.bigmodel.cn/api/paas/v4" and zhipu.model == "glm-4-flash"
    assert PRESETS["openai"].default_model == "gpt-4o-mini"


def test_remote_preset_without_key_is_not_configured():
    settings = Settings(llm_provider="deepseek")
    assert resolve_llm_config(settings, env={}) is None
    assert "API key" in str(config_problem(settings, env={}))


def test_local_presets_need_no_key():
    ollama = resolve_llm_config(Settings(llm_provider="ollama", llm_model="qwen2.5:7b"), env={})
    assert ollama is not None and ollama.api_key == "ollama" and ollama.base_url == "http://localhost:11434/v1"
    lms = resolve_llm_config(Settings(llm_provider="lmstudio", llm_model="local-model"), env={})
    assert lms is not None and lms.base_url == "http://localhost:1234/v1"
    assert resolve_llm_config(Settings(llm_provider="ollama"), env={}) is None  # model unknown
    custom = resolve_llm_config(Settings(llm_base_url="http://127.0.0.1:8080/v1", llm_model="m"), env={})
    assert custom is not None and custom.api_key


def test_env_overrides_settings():
    settings = Settings(llm_provider="openai", llm_model="gpt-4o", temperature=0.7)
    env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": "https://proxy.example.com/v1/", "OPENAI_MODEL": "my-model"}
    config = resolve_llm_config(settings, env=env)
    assert (config.base_url, config.model, config.temperature) == ("https://proxy.example.com/v1", "my-model", 0.7)


def test_bare_key_means_openai():
    config = resolve_llm_config(Settings(), env={"OPENAI_API_KEY": KEY})
    assert config is not None and config.provider == "openai" and config.model == "gpt-4o-mini"


# ---- check_connection (Settings dialog) ----


def test_check_connection_reports_success(server):
    server.reply = "OK"
    result = check_connection(make_config(server))
    assert "fake-model" in result and "OK" in result
    assert server.chat_requests()[0].body["max_tokens"] == 8


def test_check_connection_is_connected_when_the_reply_uses_all_its_tokens(server):
    server.reply, server.finish_reason = "<think>The user wants", "length"  # a reasoning model: 8 tokens thinking
    assert "fake-model" in check_connection(make_config(server))


def test_check_connection_raises_actionable_error(server):
    with pytest.raises(LLMError) as info:
        check_connection(make_config(server, model="missing-model"))
    assert info.value.kind == "model_not_found" and "missing-model" in str(info.value)


def test_cancel_during_retry_backoff_stops_quietly(server):
    server.fail_next(500, times=10)
    cancel = threading.Event()
    client = LLMClient(make_config(server, max_retries=5, retry_base_delay_s=2.0, retry_max_delay_s=2.0))
    threading.Timer(0.2, cancel.set).start()
    started = time.monotonic()
    assert list(client.stream(MESSAGES, cancel)) == []
    assert time.monotonic() - started < 1.5
    assert len(server.chat_requests()) == 1


# ---- a 200 reply that is not the answer asked for ----


def test_a_whole_completion_in_reply_to_a_stream_is_the_answer(server):
    """A server that ignores `stream` and sends one JSON completion: the answer said "The model returned an empty
    answer" every time."""
    server.reply, server.ignore_stream = "The answer is 42 [1].", True
    assert "".join(LLMClient(make_config(server)).stream(MESSAGES)) == "The answer is 42 [1]."


PAGE = b"<!doctype html><html><body>Sign in to the portal</body></html>"


@pytest.mark.parametrize("call", ["stream", "complete", "check_connection"])
def test_a_web_page_in_place_of_an_answer_says_so(server, call):
    """A base URL naming a web page (a login portal, a web UI) answered 200 with HTML: the answer was "empty", the
    connection test said "Connected ... (an empty reply)"; it is not retried."""
    server.raw_reply = ("text/html; charset=utf-8", PAGE)
    client = LLMClient(make_config(server))
    with pytest.raises(LLMError) as info:
        {"stream": lambda: list(client.stream(MESSAGES)), "complete": lambda: client.complete(MESSAGES),
         "check_connection": lambda: check_connection(make_config(server))}[call]()
    assert info.value.kind == "bad_reply" and len(server.chat_requests()) == 1
    assert "replied with text/html content, not a model's answer. Check the base URL" in str(info.value)


@pytest.mark.parametrize("call", ["stream", "complete"])
def test_a_message_without_an_answer_shows_the_servers_words_without_the_key(server, call):
    """A provider's 200 reply holding only a notice (Zhipu's {"code": 1113, "msg": "余额不足..."}) was an empty
    answer."""
    notice = {"code": 1113, "msg": f"余额不足或无可用资源包，请充值。({KEY})"}
    server.raw_reply = ("application/json", json.dumps(notice, ensure_ascii=False).encode())
    client = LLMClient(make_config(server))
    with pytest.raises(LLMError) as info:
        list(client.stream(MESSAGES)) if call == "stream" else client.complete(MESSAGES)
    assert "returned an unexpected reply: 余额不足或无可用资源包，请充值。" in str(info.value)
    assert KEY not in str(info.value) and KEY not in repr(info.value)


@pytest.mark.parametrize("status", [None, 404])
def test_a_password_or_key_in_the_base_url_is_not_in_the_message(server, status):
    """A proxy's address with user:password (or ?key=) was quoted whole by "Could not reach the model server at ..."."""
    if status is None:
        address = closed_port_url().replace("http://", "http://bob:hunter2secret@") + f"?key={KEY}"
    else:
        server.fail_next(status, message="404 page not found")
        address = server.base_url.replace("http://", "http://bob:hunter2secret@") + f"?key={KEY}"
    err = error_of(LLMClient(make_config(server, base_url=address, max_retries=0)))
    assert "hunter2secret" not in str(err) and KEY not in str(err) and "127.0.0.1" in str(err)


def test_chunks_of_the_wrong_shape_give_only_their_text(server):
    """A chunk's fields are the server's: a number as content ended the answer with "'int' object is not
    subscriptable", choices as a string with "'str' object has no attribute 'delta'"; content as a list of parts
    (Mistral's) gives its text parts, never a thinking part."""
    server.tokens = [
        "Leave is",
        {"choices": [{"index": 0, "delta": {"content": 25}}]},
        {"choices": "zzz"},
        {"choices": [{"index": 0, "delta": None}]},
        {"choices": [{"index": 0, "delta": {"content": [{"type": "thinking", "thinking": "hmm"},
                                                        {"type": "text", "text": " 25 days"}]}}]},
        " [1].",
    ]
    assert "".join(LLMClient(make_config(server)).stream(MESSAGES)) == "Leave is 25 days [1]."


@pytest.mark.parametrize("status, content_type, body, said", [
    (502, "text/html", b"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
                       b"<hr>nginx</body></html>", "Server said: 502 Bad Gateway"),
    (503, "text/plain", b"upstream connect error or disconnect/reset before headers",
     "Server said: upstream connect error or disconnect/reset before headers"),
    (401, "text/plain", f"invalid key {KEY}".encode(), "Server said: invalid key ***"),
])
def test_an_error_body_that_is_not_json_is_said_in_its_own_words(server, status, content_type, body, said):
    """A proxy's error page or text said only "Server said: Error code: 502"."""
    server.raw_reply, server.raw_status = (content_type, body), status
    err = error_of(LLMClient(make_config(server, max_retries=0)))
    assert str(err).endswith(said) and KEY not in str(err)


def test_a_stream_line_that_is_not_json_is_said_as_it_came(server):
    """A server sending a line that is not JSON ended the answer with Python's "Expecting property name enclosed in
    double quotes: line 1 column 2 (char 1)"; the person now sees what came (the key scrubbed from it)."""
    server.tokens = ["Leave is", f"{{oops {KEY}".encode(), " 25 days."]
    err = error_of(LLMClient(make_config(server)))
    assert err.kind == "cut" and err.partial == "Leave is"
    assert "sent a reply that is not JSON, as the OpenAI protocol requires: “{oops ***”" in str(err)


def test_a_reply_without_end_is_read_only_so_far(server, monkeypatch):
    """A request that does not stream (the connection test, a rewrite, a translation) read a body that never ends
    into memory until the deadline: 5.7 GB in 10 s from a local server, past the default 300 s an out-of-memory
    end of the app. Now the body is read at most MAX_REPLY_BYTES (1 MB here)."""
    from desktop_rag.engine.answer import llm_http

    monkeypatch.setattr(llm_http, "MAX_REPLY_BYTES", 1 << 20, raising=False)
    server.endless_body = True
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        LLMClient(make_config(server, deadline_s=1.0)).complete(MESSAGES)
    assert info.value.kind == "bad_reply" and "sent more than 1 MB for one reply" in str(info.value)
    assert time.monotonic() - started < 1.0 and len(server.chat_requests()) == 1


def test_a_base_url_typed_without_a_scheme_is_reached(server):
    """"localhost:11434/v1", as Ollama's docs write it: with no key the answer said "No API key is set for the model
    server" (the address did not read as this computer's), with one "Could not reach the model server"."""
    typed = server.base_url.removeprefix("http://")
    settings = Settings(llm_base_url=typed, llm_model="fake-model")
    config = resolve_llm_config(settings, env={})
    assert config is not None and config.base_url == server.base_url and config_problem(settings, env={}) is None
    assert "".join(LLMClient(config).stream(MESSAGES)) == "".join(server.reply_tokens())
    remote = resolve_llm_config(Settings(llm_base_url="api.deepseek.com/v1", llm_model="m"),
                                env={"OPENAI_API_KEY": KEY})
    assert remote is not None and remote.base_url == "https://api.deepseek.com/v1"  # never plain http by a guess


@pytest.mark.parametrize("scheme", ["htp", "ftp"])
def test_a_base_url_of_another_scheme_says_so_without_retrying(server, scheme):
    """"htp://…" said "Could not reach the model server … Is the local server (Ollama / LM Studio) running?" after
    its retries."""
    address = server.base_url.replace("http://", f"{scheme}://")
    err = error_of(LLMClient(make_config(server, base_url=address)))
    assert str(err) == (f"The model server's address {address} does not start with http:// or https://. Check the "
                        "base URL in Settings.")


EVENTS = (b'data: {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "The answer"}}]}\n\n'
          b'data: {"choices": [{"index": 0, "delta": {"content": " is 42 [1]."}, "finish_reason": "stop"}]}\n\n'
          b"data: [DONE]\n\n")


@pytest.mark.parametrize("call, content_type", [("stream", "application/json"), ("complete", "text/event-stream")])
def test_a_stream_labelled_json_or_sent_unasked_is_the_answer(server, call, content_type):
    """A stream labelled application/json (some proxies) was taken for a JSON body that is no answer; a stream sent
    in reply to a request that does not stream (a server that always streams) was an empty reply."""
    server.raw_reply = (content_type, EVENTS)
    client = LLMClient(make_config(server))
    text = "".join(client.stream(MESSAGES)) if call == "stream" else client.complete(MESSAGES)
    assert text == "The answer is 42 [1]."


@pytest.mark.parametrize("reason", ["Connection refused", "SSL"])
def test_an_unreachable_server_is_said_with_the_systems_reason(server, reason):
    """Connection refused, no such host name, a certificate not trusted and https to a plain-http server all said
    only "Could not reach the model server at … Is the local server (Ollama / LM Studio) running?"."""
    address = closed_port_url() if reason == "Connection refused" else server.base_url.replace("http://", "https://")
    err = error_of(LLMClient(make_config(server, base_url=address, max_retries=0)))
    assert err.kind == "unreachable" and f"Could not reach the model server at {address} (" in str(err)
    assert reason in str(err).split("(", 1)[1]


@pytest.mark.parametrize("content, text", [(123, ""), ({"a": 1}, ""), ([{"type": "text", "text": "hi"}], "hi")])
def test_a_whole_reply_of_the_wrong_shape_gives_its_text_without_warnings(server, content, text):
    """A completion's content of another type printed pydantic's "serializer warnings" on the command line's stderr."""
    body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": 7}]}
    server.raw_reply = ("application/json", json.dumps(body).encode())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert LLMClient(make_config(server)).complete(MESSAGES) == text


@pytest.mark.parametrize("pasted", [f"Bearer {KEY}", f"bearer  {KEY}\n", f"Authorization: Bearer {KEY}"])
def test_a_key_pasted_with_its_headers_words_is_sent_as_the_key(server, pasted):
    """A key copied from a curl example ("Bearer sk-…") was sent as "Bearer Bearer sk-…": "The API key was
    rejected"."""
    server.api_key = KEY
    config = resolve_llm_config(Settings(llm_base_url=server.base_url, llm_model="fake-model"),
                                env={"OPENAI_API_KEY": pasted})
    assert config is not None and "".join(LLMClient(config).stream(MESSAGES))
    assert server.chat_requests()[-1].headers["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_gateway_or_overloaded_server_is_said_to_be_unavailable_not_broken(server, status):
    """A 502/503/504 (a proxy in front of the model server, an overloaded or restarting server) was said to be an
    "internal error" of the model server; it is retried as before, then said to be unavailable for now."""
    server.fail_next(status, times=10, message="no healthy upstream")
    err = error_of(LLMClient(make_config(server, max_retries=1)))
    assert err.kind == "server" and len(server.chat_requests()) == 2  # retried once
    assert str(err).startswith(f"The model server 127.0.0.1:{server.base_url.split(':')[2].split('/')[0]} is "
                               f"unavailable right now (HTTP {status})") and "no healthy upstream" in str(err)
    assert "internal error" not in str(err)
