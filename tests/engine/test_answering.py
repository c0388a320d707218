"""Answer events end to end against a real local OpenAI-compatible server, and without a model."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from desktop_rag.config import Settings
from desktop_rag.engine.answer.answering import Answerer
from desktop_rag.engine.answer.llm import LLMClient
from desktop_rag.engine.answer.llm_config import LLMConfig
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.answer.events import STOPPED, DoneEvent, ErrorEvent, SourcesEvent, TokenEvent
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import ChatTurn, Hit
from tests.support.openai_server import run_openai_server

KEY = "sk-test-SECRET1234567890abcdefXYZ"


def hit(n: int, text: str) -> Hit:
    return Hit(chunk_id=n, score=1.0 / n, path=f"/docs/doc{n}.md", page=None, heading="", text=text)


HITS = [
    hit(1, "Employees get 25 days of annual leave per year."),
    hit(2, "Leave requests go to your manager."),
    hit(3, "The cafeteria serves lunch from noon."),
]


class FakeSearch:
    """Records the queries it gets and returns fixed hits (retrieval is tested elsewhere)."""

    def __init__(self, hits: list[Hit]) -> None:
        self.hits = hits
        self.queries: list[tuple[str, int]] = []

    def __call__(self, query: str, k: int) -> list[Hit]:
        self.queries.append((query, k))
        return self.hits[:k]


@pytest.fixture
def server():
    with run_openai_server() as srv:
        yield srv


@pytest.fixture(autouse=True)
def no_llm_env(monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)


def client(server, **changes) -> LLMClient:
    values = dict(base_url=server.base_url, model="fake-model", api_key=KEY, timeout_s=5.0,
                  max_retries=0, retry_base_delay_s=0.01)
    values.update(changes)
    return LLMClient(LLMConfig(**values))


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


def test_sources_then_tokens_then_done(server):
    server.tokens = ["Employees", " get", " 25", " days", " [1].", " Ask", " your", " manager", " [2][9]."]
    search = FakeSearch(HITS)
    events = list(Answerer(Settings(top_k=3), search, client(server)).answer("How much leave do I get?"))
    names = kinds(events)
    assert names[0] == "SourcesEvent" and names[-1] == "DoneEvent"
    assert set(names[1:-1]) == {"TokenEvent"} and len(names) == 2 + len(server.tokens)
    sources, done = events[0], events[-1]
    assert sources.hits == tuple(HITS) and sources.query == "How much leave do I get?"
    assert "".join(e.text for e in events[1:-1]) == "".join(server.tokens)
    assert done.answer == "Employees get 25 days [1]. Ask your manager [2]."
    assert done.mode == "llm" and done.notice == ""
    assert done.cited == (HITS[0], HITS[1])
    assert search.queries == [("How much leave do I get?", 3)]


def test_the_model_gets_the_passages_and_the_question(server):
    list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("How much leave do I get?"))
    (req,) = server.chat_requests()
    messages = req.body["messages"]
    assert messages[0]["role"] == "system"
    assert "[1] doc1.md\nEmployees get 25 days" in messages[-1]["content"]
    assert messages[-1]["content"].endswith("Question: How much leave do I get?")
    assert req.body["temperature"] == pytest.approx(0.2)


def test_no_citations_falls_back_to_top_passages(server):
    server.reply = "You get 25 days."
    done = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("Leave?"))[-1]
    assert done.answer == "You get 25 days." and done.cited == tuple(HITS)


def test_history_rewrites_the_query_with_the_model(server):
    server.queue_reply("annual leave for part-time staff")
    server.reply = "Part-timers get pro-rata leave [1]."
    search = FakeSearch(HITS)
    history = [ChatTurn("user", "How much annual leave do I get?"), ChatTurn("assistant", "25 days [1].")]
    events = list(Answerer(Settings(), search, client(server)).answer("And part-timers?", history))
    assert search.queries[0][0] == "annual leave for part-time staff"
    assert events[0].query == "annual leave for part-time staff"
    rewrite, answer = server.chat_requests()
    assert not rewrite.body.get("stream") and "And part-timers?" in rewrite.body["messages"][-1]["content"]
    assert answer.body["stream"] is True
    assert [m["role"] for m in answer.body["messages"]] == ["system", "user", "assistant", "user"]
    assert events[-1].answer == "Part-timers get pro-rata leave [1]."


def test_rewrite_failure_falls_back_to_the_rule(server):
    server.fail_next(500)  # the rewrite call fails; the answer call succeeds
    search = FakeSearch(HITS)
    history = [ChatTurn("user", "How much annual leave do I get?"), ChatTurn("assistant", "25 days.")]
    events = list(Answerer(Settings(), search, client(server)).answer("What about part-timers?", history))
    assert search.queries[0][0] == "annual leave get What about part-timers?"
    assert len(server.chat_requests()) == 2
    assert isinstance(events[-1], DoneEvent) and events[-1].mode == "llm"


def test_no_passages_means_no_model_call(server):
    events = list(Answerer(Settings(), FakeSearch([]), client(server)).answer("Anything?"))
    assert kinds(events) == ["SourcesEvent", "DoneEvent"]
    assert events[0].hits == ()
    assert "couldn't find anything relevant" in events[-1].answer
    assert server.requests == []
    zh = list(Answerer(Settings(), FakeSearch([]), None).answer("有什么？"))[-1]
    assert "没有找到" in zh.answer and zh.mode == "extractive"


def test_extractive_mode_without_model():
    events = list(Answerer(Settings(), FakeSearch(HITS), None).answer("How many days of annual leave?"))
    names = kinds(events)
    assert names[0] == "SourcesEvent" and names[-1] == "DoneEvent" and "TokenEvent" in names
    done = events[-1]
    assert done.mode == "extractive"
    assert "".join(e.text for e in events if isinstance(e, TokenEvent)) == done.answer
    assert "Employees get 25 days of annual leave per year. [1]" in done.answer
    cited = done.cited[0]  # the passage, with the quoted sentence as its focus (the viewer lights it strongly)
    assert dataclasses.replace(cited, focus=()) == HITS[0]
    assert cited.text[slice(*cited.focus[0])] == "Employees get 25 days of annual leave per year."
    assert events[0].hits[0].focus == cited.focus
    assert "No language model is configured" in done.notice and "Settings" in done.notice


def test_extractive_notice_names_the_missing_key():
    settings = Settings(llm_provider="deepseek")
    done = list(Answerer(settings, FakeSearch(HITS), None).answer("leave?"))[-1]
    assert "No API key is set for DeepSeek" in done.notice


def test_model_error_ends_with_error_event(server):
    server.api_key = "sk-another-key-000000000000"
    events = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("Leave?"))
    assert kinds(events) == ["SourcesEvent", "ErrorEvent"]
    assert "rejected" in str(events[-1].message) and KEY not in str(events[-1].message)


def test_cut_stream_gives_error_with_partial(server):
    server.tokens = ["You", " get", " 25", " days"]
    server.cut_after = 2
    events = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("Leave?"))
    assert kinds(events) == ["SourcesEvent", "TokenEvent", "TokenEvent", "ErrorEvent"]
    assert events[-1].partial == "You get" and "cut off" in str(events[-1].message)


def test_cancel_mid_stream_gives_partial_done(server):
    server.tokens = [f" w{i}" for i in range(40)]
    server.token_delay = 0.05
    cancel = threading.Event()
    events = []
    started = time.monotonic()
    for event in Answerer(Settings(), FakeSearch(HITS), client(server)).answer("Leave?", cancel=cancel):
        events.append(event)
        if sum(isinstance(e, TokenEvent) for e in events) == 2:
            cancel.set()
    assert time.monotonic() - started < 1.0
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.notice == STOPPED and done.answer == " w0 w1"
    assert (str(done.notice), done.notice.text("zh")) == ("Stopped.", "已停止。")  # coded: shown in either language
    assert kinds(events) == ["SourcesEvent", "TokenEvent", "TokenEvent", "DoneEvent"]


def test_search_error_becomes_error_event():
    def broken(query: str, k: int) -> list[Hit]:
        raise DesktopRagError("The library is being rebuilt; try again in a moment.")

    events = list(Answerer(Settings(), broken, None).answer("q?"))
    assert events == [ErrorEvent(Reason.of("The library is being rebuilt; try again in a moment."))]


def test_context_budget_limits_sources(server):
    big = [hit(i, f"passage {i} " + "x" * 1500) for i in range(1, 6)]
    events = list(Answerer(Settings(top_k=5, context_budget_chars=4000), FakeSearch(big), client(server)).answer("q?"))
    sources = events[0]
    assert isinstance(sources, SourcesEvent) and 1 <= len(sources.hits) < 5
    assert sources.hits == tuple(big[: len(sources.hits)])


def test_extractive_notice_speaks_the_question_language():
    hits = [Hit(1, 0.9, "/docs/tea.md", None, "", "冲泡绿茶的水温一般在八十度左右。")]
    answerer = Answerer(Settings(), lambda q, k: hits, None)
    done = list(answerer.answer("绿茶的水温是多少？"))[-1]
    assert done.mode == "extractive" and "设置" in done.notice
    done = list(Answerer(Settings(), lambda q, k: [Hit(1, 0.9, "/d.txt", None, "", "Water at 90 degrees.")], None)
                .answer("What water temperature?"))[-1]
    assert "Settings" in done.notice and done.notice.count("No language model is configured") == 1


def test_the_model_reads_first_the_passage_the_extractive_answer_would_lead_with(server):
    """Issue 50 item 6: the same weighing orders the prompt's passages (and their [n])."""
    from desktop_rag.engine.text.topics import Topic, Topics

    coffee = Hit(1, 1.0, "/docs/coffee.txt", None, "", "The ideal range for brewing is between 90 and 96 degrees.")
    tea = Hit(2, 0.8, "/docs/绿茶.md", None, "", "冲泡绿茶的水温一般在八十度左右。")
    green_tea = Topics((Topic("绿茶", ("green", "tea"), 2.0),))
    answerer = Answerer(Settings(), FakeSearch([coffee, tea]), client(server), topics_of=lambda _: green_tea)
    sources = list(answerer.answer("绿茶用多少度的水？"))[0]
    assert [h.chunk_id for h in sources.hits] == [2, 1]
    (req,) = server.chat_requests()
    assert "[1] 绿茶.md\n冲泡绿茶" in req.body["messages"][-1]["content"]


def test_a_cut_answer_keeps_only_citations_of_passages_it_was_given(server):
    """The partial text of a failed answer is what the chat shows and the conversation keeps: like a finished
    answer's, a citation of a passage that does not exist ([9] of 3) is dropped, not shown as a dead link."""
    server.tokens = ["Leave", " is", " 25", " days", " [1]", " [9]", " [2-3].", " More"]
    server.cut_after = 7
    events = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("Leave?"))
    assert kinds(events)[-1] == "ErrorEvent"
    assert events[-1].partial == "Leave is 25 days [1] [2][3]."


@pytest.mark.parametrize("language, says", [
    ("en", "The answer was stopped at 12 characters"),
    ("zh", "回答在 12 个字符处停止"),
])
def test_an_answer_cut_at_its_size_limit_says_so_in_either_language(server, language, says):
    """The notice is coded, said in the language it is shown in (the interface's: a Chinese window showed the
    English sentence for an English question, and Chinese when the conversation was reopened)."""
    server.tokens = ["You get ", "25 days ", "of leave ", "a year."]
    done = list(Answerer(Settings(), FakeSearch(HITS), client(server, max_answer_chars=12)).answer("Leave?"))[-1]
    assert isinstance(done, DoneEvent) and done.answer == "You get 25 d"
    assert done.notice.text(language).startswith(says)


@pytest.mark.parametrize("language, says", [
    ("en", "The model returned an empty answer."),
    ("zh", "模型返回了空的回答。"),
])
def test_an_empty_model_answer_says_so_in_either_language(server, language, says):
    server.tokens = []
    done = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("年假有多少天？"))[-1]
    assert isinstance(done, DoneEvent) and done.answer == "" and done.notice.text(language).startswith(says)
    assert done.ending.state == "empty"


def test_a_reasoning_models_think_block_is_not_the_answer(server):
    """DeepSeek-R1 or Qwen3 through Ollama write their thinking as a <think> block before the answer: it was
    streamed and shown as the answer, tags and all. Split across pieces as a server sends it."""
    server.tokens = ["<th", "ink>", "The user asks about leave. [3] is about", " lunch.</th", "ink>", "\n\n",
                     "Employees get", " 25 days [1]."]
    events = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("How much leave do I get?"))
    shown = "".join(e.text for e in events if isinstance(e, TokenEvent))
    done = events[-1]
    assert shown == done.answer == "Employees get 25 days [1]."
    assert done.cited == (HITS[0],)


def test_a_follow_up_rewritten_by_a_reasoning_model_searches_its_answer_not_its_thinking(server):
    """The rewrite's first line was the model's "<think>…" line, searched as the question."""
    server.queue_reply("<think>\nThe user means part-time staff.\n</think>\n\nannual leave for part-time staff")
    search = FakeSearch(HITS)
    history = [ChatTurn("user", "How much annual leave do I get?"), ChatTurn("assistant", "25 days [1].")]
    list(Answerer(Settings(), search, client(server)).answer("And part-timers?", history))
    assert search.queries[0][0] == "annual leave for part-time staff"


@pytest.mark.parametrize("tokens, question, answer, says", [
    (["You get", " 25 days", " of"], "Leave?", "You get 25 days of",
     "The model stopped at its limit of 2,048 tokens for one reply, so the answer may be incomplete."),
    (["You get", " 25 days", " of"], "年假有多少天？", "You get 25 days of",  # coded: English as a string
     "The model stopped at its limit of 2,048 tokens for one reply"),
    (["<think>", "Leave is", " in passage"], "Leave?", "",
     "The model spent its whole limit of 2,048 tokens for one reply reasoning and wrote no answer."),
    (["Thinking", " it over.\n</think>\n\n", "You get", " 25"], "Leave?", "You get 25",  # template-opened thinking
     "The model stopped at its limit of 2,048 tokens for one reply, so the answer may be incomplete."),
    ([], "Leave?", "",  # OpenAI's reasoning models: the reasoning is hidden, and counts against the limit
     "The model spent its whole limit of 2,048 tokens for one reply reasoning and wrote no answer."),
])
def test_an_answer_the_server_stopped_at_max_tokens_says_so(server, tokens, question, answer, says):
    """finish_reason "length": the answer was shown as if whole (and stored, so asking again replayed the cut
    answer); a reasoning model that spent the tokens thinking showed "The model returned an empty answer"."""
    server.tokens, server.finish_reason = tokens, "length"
    done = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer(question))[-1]
    assert isinstance(done, DoneEvent) and done.answer == answer and str(done.notice).startswith(says)


def test_a_silent_server_is_waited_for_once_by_the_rewrite_not_once_per_retry(server):
    """A server that accepts and never answers: the follow-up's rewrite (an extra, with a fallback) waited out its
    read timeout on every retry before the answer's own request waited again (with the translation: 6 minutes
    at the default 60 s before the error)."""
    server.hang_if = lambda body: not body.get("stream")  # only the rewrite hangs
    search = FakeSearch(HITS)
    history = [ChatTurn("user", "How much annual leave do I get?"), ChatTurn("assistant", "25 days [1].")]
    llm = client(server, timeout_s=0.5, max_retries=2)
    events = list(Answerer(Settings(), search, llm).answer("And part-timers?", history))
    rewrites = [r for r in server.chat_requests() if not r.body.get("stream")]
    assert len(rewrites) == 1 and isinstance(events[-1], DoneEvent)  # the rule's rewrite, then the answer


def test_thinking_whose_block_the_chat_template_opened_is_not_the_finished_answer(server):
    """DeepSeek-R1 on vLLM without a reasoning parser: the template opens <think>, the reply is "reasoning…</think>
    answer". It streams as it comes (the end of the thinking is not known until then), but the finished answer,
    which the chat shows in its place, kept and stored, is the answer alone."""
    server.tokens = ["The user asks about leave.", " [3] is lunch.\n", "</think>", "\n\n", "Employees get",
                     " 25 days [1]."]
    done = list(Answerer(Settings(), FakeSearch(HITS), client(server)).answer("How much leave do I get?"))[-1]
    assert done.answer == "Employees get 25 days [1]." and done.cited == (HITS[0],)
