"""An answer stopped by the person, cut at its size limit or cut off by the server (or one failing before it began, a
summary made of cut sections), kept in its conversation with how it
ended (store/values.Ending, `messages.ended`): read back with its partial text, its passages and its note (codes, said
in either language), and sent to the model in the next question's history marked unfinished.
tests/engine/test_unfinished_turns.py on SQLite, tests/postgres/test_unfinished_turns.py on a server: the same
scenarios, through the real local OpenAI-protocol server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import error_text
from desktop_rag.engine.answer.events import DoneEvent, ErrorEvent, TokenEvent
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from tests.support.long_document import write_long_pdf
from tests.support.openai_server import FakeOpenAIServer, run_openai_server

KEY = "sk-test-unfinished-0123456789"
WORDS = ["Employees", " get", " 25", " days", " of", " annual", " leave", " [1]", " each", " year", "."]
THOUGHT = ["Let me ", "think", "\n</think>", "\n\n", "You get ", "25 days [1]."]
THINKING = ["Let me ", "think about", " the leave", " policy", " at", " length", " first"]


def serving(monkeypatch) -> Iterator[FakeOpenAIServer]:
    """A fixture's body: the local server, its key in OPENAI_API_KEY (`yield from serving(monkeypatch)`)."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with run_openai_server() as server:
        yield server


def settings(server: FakeOpenAIServer) -> Settings:
    """The hash embedder and the local server's model (the key comes from OPENAI_API_KEY: `KEY`)."""
    return Settings(embedding_model="hash:64", translate_queries=False, llm_provider="custom",
                    llm_base_url=server.base_url, llm_model="fake-model")


def indexed(engine: Engine, folder: Path) -> None:
    folder.mkdir()
    (folder / "leave.md").write_text("# Leave\n\nEmployees get 25 days of annual leave each year.\n", encoding="utf-8")
    assert engine.index([folder]).added == 1


def beside(engine: Engine) -> Path:
    """A folder beside the engine's data folder (in the test's own temporary folder), for files of a scenario's own."""
    return engine.paths.data_dir.parent


def stopped_after(engine: Engine, question: str, conversation: int | None, tokens: int) -> list:
    """`question`'s answer events, stopped (the Stop button's cancel) after `tokens` tokens."""
    cancel, events = threading.Event(), []
    for event in engine.ask(question, conversation, cancel=cancel):
        events.append(event)
        if sum(isinstance(e, TokenEvent) for e in events) == tokens:
            cancel.set()
    return events


def answer_turn(engine: Engine, conversation: int):
    turns = engine.messages(conversation)
    assert [t.role for t in turns] == ["user", "assistant"], turns
    return turns[1]


def next_history(engine: Engine, server: FakeOpenAIServer, conversation: int) -> list[str]:
    """The conversation's turns as the next question's answer request sends them (a whole reply now)."""
    server.tokens, server.token_delay = ["Twenty-five", " days."], 0.0
    server.finish_reason, server.cut_after = "stop", None
    list(engine.ask("And for part-timers?", conversation))
    return [m["content"] for m in server.chat_requests()[-1].body["messages"][1:-1]]


def a_stopped_answer_is_kept_and_sent_marked_unfinished(engine: Engine, server: FakeOpenAIServer) -> None:
    server.tokens, server.token_delay = WORDS, 0.05
    conversation = engine.new_conversation()
    done = stopped_after(engine, "How much annual leave?", conversation, 3)[-1]
    assert isinstance(done, DoneEvent) and done.answer == "Employees get 25" and done.ending.state == "stopped"
    turn = answer_turn(engine, conversation)
    assert turn.content == "Employees get 25" and turn.sources and turn.prompt is not None
    assert turn.ending.state == "stopped" and turn.ending.reason.code == "notice.stopped"
    assert (turn.ending.reason.text("en"), turn.ending.reason.text("zh")) == ("Stopped.", "已停止。")
    assert next_history(engine, server, conversation) == [
        "How much annual leave?", "Employees get 25 [this answer was stopped by the user before it was finished]"]
    assert [t.ending for t in engine.messages(conversation)[2:]] == [None, None]  # a whole answer: no ending


def a_stopped_answer_is_not_stored_as_an_answer(engine: Engine, server: FakeOpenAIServer) -> None:
    """Outside a conversation (the answer cache keeps answers asked alone): stopped, the same question is asked
    of the model again, and its whole answer is what is replayed next."""
    server.tokens, server.token_delay = WORDS, 0.05
    assert stopped_after(engine, "How much annual leave?", None, 3)[-1].ending.state == "stopped"
    server.token_delay = 0.0
    again = list(engine.ask("How much annual leave?"))[-1]
    assert not again.cached and again.answer.startswith("Employees get 25 days of annual leave [1]")
    assert list(engine.ask("How much annual leave?"))[-1].cached


def an_answer_cut_at_its_size_limit_is_kept_with_its_code(engine: Engine, server: FakeOpenAIServer) -> None:
    server.tokens, server.finish_reason = WORDS[:4], "length"
    conversation = engine.new_conversation()
    done = list(engine.ask("How much annual leave?", conversation))[-1]
    assert done.notice == done.ending.reason  # coded: said in the language it is shown in
    turn = answer_turn(engine, conversation)
    assert turn.content == "Employees get 25 days" and turn.ending.state == "cut"
    assert turn.ending.reason.code == "llm_token_limit"
    assert turn.ending.reason.text("zh").startswith("模型在单次回复") and turn.ending.reason == done.notice
    assert next_history(engine, server, conversation)[1] == (
        "Employees get 25 days [this answer was cut off at the reply's size limit]")


def an_answer_the_server_cut_off_is_kept_with_its_error(engine: Engine, server: FakeOpenAIServer) -> None:
    server.tokens, server.cut_after = WORDS, 4
    conversation = engine.new_conversation()
    failed = list(engine.ask("How much annual leave?", conversation))[-1]
    assert isinstance(failed, ErrorEvent) and failed.partial == "Employees get 25 days"
    turn = answer_turn(engine, conversation)
    assert turn.content == "Employees get 25 days" and turn.ending.state == "failed" and turn.sources
    assert turn.ending.reason == failed.message and turn.ending.reason.code == failed.message.code
    assert turn.ending.reason.text("zh") != turn.ending.reason.text("en")
    assert next_history(engine, server, conversation)[1] == (
        "Employees get 25 days [this answer was not finished: the reply failed]")


def a_thinking_model_stopped_mid_thought_keeps_no_text_but_the_stop(engine: Engine, server: FakeOpenAIServer) -> None:
    server.tokens = THOUGHT
    list(engine.ask("How much leave?"))  # a whole answer: the model is seen thinking
    server.tokens, server.token_delay = THINKING, 0.05
    conversation = engine.new_conversation()
    done = stopped_after(engine, "How many days of leave?", conversation, 3)[-1]
    assert done.answer == "" and done.answer_id is None  # nothing to grade (review/recording.gradable)
    turn = answer_turn(engine, conversation)
    assert turn.content == "" and turn.ending.state == "stopped"
    assert turn.ending.reason.text("zh").startswith("已停止：模型还在思考")
    stored = engine.store.db.execute("SELECT content, ended FROM messages WHERE role = 'assistant'").fetchall()
    assert not any("think" in content or "think about" in (ended or "") for content, ended in stored), stored
    assert next_history(engine, server, conversation) == [
        "How many days of leave?", "[this answer was stopped by the user before it was finished]"]


def a_reply_without_an_answer_is_kept_as_empty(engine: Engine, server: FakeOpenAIServer) -> None:
    """The model's whole reply (finish_reason "stop") held no answer: before, the question was kept alone."""
    server.tokens = []
    conversation = engine.new_conversation()
    done = list(engine.ask("How much annual leave?", conversation))[-1]
    assert isinstance(done, DoneEvent) and done.answer == "" and done.notice == done.ending.reason.parts[0]
    turn = answer_turn(engine, conversation)
    assert turn.content == "" and turn.ending.state == "empty" and turn.sources and turn.prompt is not None
    assert turn.ending.reason.code == "empty_model_answer"
    assert turn.ending.reason.text("zh").startswith("模型返回了空的回答")
    assert next_history(engine, server, conversation) == ["How much annual leave?", "[the model returned no answer]"]


def a_reply_of_thinking_only_is_kept_as_such(engine: Engine, server: FakeOpenAIServer) -> None:
    """The model's whole reply was thinking and no answer (an unclosed `<think>` block, a closed one with nothing
    after it, thinking its chat template opened up to a lone `</think>`): it said "empty answer" as if the model had
    written nothing. Now it says the model only thought, kept so; a reply of nothing still says it was empty."""
    for tokens in (["<think>", "Let me weigh", " the policy"], ["<think>", "Let me weigh", "</think>", "\n\n"],
                   ["Let me weigh", " the policy", "\n</think>\n"]):
        server.tokens = tokens
        conversation = engine.new_conversation()
        done = list(engine.ask("How much annual leave?", conversation))[-1]
        assert isinstance(done, DoneEvent) and done.answer == "" and done.notice == done.ending.reason.parts[0], done
        turn = answer_turn(engine, conversation)
        assert turn.content == "" and turn.ending.state == "empty" and turn.ending.reason.code == "thought_no_answer"
        assert turn.ending.reason.text("en").startswith("The model only thought and gave no answer.")
        assert turn.ending.reason.text("zh").startswith("模型只进行了思考，没有给出回答。")
        assert "weigh" not in str(engine.store.db.execute("SELECT content, ended FROM messages").fetchall())
    assert next_history(engine, server, conversation) == ["How much annual leave?", "[the model returned no answer]"]


def a_question_that_fails_before_its_answer_is_kept_with_its_error(engine: Engine, server: FakeOpenAIServer) -> None:
    """"Ask this document" (or "Summarise") on a file no longer in the library raised before any answer event:
    nothing was kept, and the reopened conversation did not have the question. Now it and its error are a failed
    turn (the error raised all the same); a blank question is none, and nothing of it is kept."""
    gone = str(beside(engine) / "gone.md")
    for question, asked in (("How much leave?", lambda c: engine.ask("How much leave?", c, files=[gone])),
                            ("Summarise gone.md", lambda c: engine.summarise(gone, conversation_id=c,
                                                                             question="Summarise gone.md"))):
        conversation = engine.new_conversation()
        with pytest.raises(UsageError) as caught:
            list(asked(conversation))
        turns = engine.messages(conversation)
        assert [(t.role, t.content) for t in turns] == [("user", question), ("assistant", "")], turns
        assert turns[1].ending.state == "failed" and turns[1].ending.reason.code == caught.value.code
        assert turns[1].ending.reason.text("zh") == error_text(caught.value, "zh") != str(caught.value)
    conversation = engine.new_conversation()
    with pytest.raises(UsageError):
        list(engine.ask("   ", conversation))
    assert engine.messages(conversation) == []
    assert not server.chat_requests()  # none of them reached the model


def a_summary_of_cut_sections_is_kept_with_its_ending(engine: Engine, server: FakeOpenAIServer) -> None:
    """A long document's section replies all cut at their max_tokens (they do not stream): the summary says how
    many, in either language, and is not stored (a Regenerate asked again); then its note was not kept with its
    conversation's turn, so reopened it said nothing."""
    report = write_long_pdf(beside(engine) / "reports" / "report.pdf")
    engine.index([report.parent])
    server.reply = "The document surveys regions [1] and their rivers [2]."
    plan = engine.summary_plan(report, language="zh")
    server.finish_for = lambda body: "stop" if body.get("stream") else "length"  # every section's reply is cut
    conversation = engine.new_conversation()
    done = list(engine.summarise(report, language="zh", conversation_id=conversation))[-1]
    assert isinstance(done, DoneEvent) and done.answer == server.reply
    for language, says in (("zh", "模型在总结文档"), ("en", "The model stopped at its limit of")):
        said = done.notice.text(language)
        assert says in said and f"{plan.sections}" in said, said
    turn = answer_turn(engine, conversation)
    assert turn.content == done.answer and turn.ending.state == "sections_cut" and turn.ending.reason == done.notice
    assert next_history(engine, server, conversation)[1] == (  # (its citations left out, as any answer's)
        "The document surveys regions and their rivers. [this summary was written from section summaries cut at "
        "their size limit: it may leave things out]")
    server.finish_for = None
    asked = len(server.chat_requests())
    again = list(engine.summarise(report, language="zh"))[-1]
    assert not again.cached and not again.notice and len(server.chat_requests()) == asked + plan.requests


SECTION_REPLY = "This part reports rainfall and yields in detail, season by season, for each town. " * 8


def long_report(folder: Path) -> Path:
    """A document of 18 sections at a summary budget of 1,000 tokens: with the section summaries the server gives
    (`SECTION_REPLY`, about 130 tokens each), only the first fits the summary's last request."""
    paragraph = ("The river basin report describes rainfall, irrigation channels, crop yields and the markets of the "
                 "towns along the water, with figures for every season of the last ten years. ")
    folder.mkdir(parents=True)
    document = folder / "basin.md"
    document.write_text("\n\n".join(f"## Part {n}\n\n{paragraph * 6}" for n in range(12)), encoding="utf-8")
    return document


def a_summary_cut_to_its_budget_is_kept_with_its_note(engine: Engine, server: FakeOpenAIServer) -> None:
    """A document whose section summaries do not all fit the summary's last request (a budget of 1,000 tokens):
    the summary covers the first ones and says so. That note was plain text in the summary's language, and neither
    its turn nor the stored summary kept it as such: reopened (or replayed) it said nothing, or the wrong language.
    Now it is coded, kept as the turn's ending ("partial") and with the stored summary, which is still replayed."""
    document = long_report(beside(engine) / "basin")
    engine.index([document.parent])
    engine.apply_settings(engine.settings.replace(summary_budget_tokens=1000), save=False)
    plan = engine.summary_plan(document, language="en")
    assert plan.mode == "map-reduce" and plan.sections > 2, plan
    server.reply = SECTION_REPLY
    conversation = engine.new_conversation()
    done = list(engine.summarise(document, conversation_id=conversation, confirm_cost=True))[-1]
    assert isinstance(done, DoneEvent) and done.answer and done.ending is not None, done
    assert done.ending.state == "partial" and done.notice == done.ending.reason
    assert done.notice.text("en").startswith("This summary covers the first 1 of the document's")
    assert done.notice.text("zh").startswith(f"本摘要只涵盖文档 {plan.sections} 个部分中的前 1 个")
    turn = answer_turn(engine, conversation)
    assert turn.content == done.answer and turn.ending == done.ending
    assert next_history(engine, server, conversation)[1].endswith(
        "[this summary covers only the first sections of the document: the rest did not fit one request]")
    conversation = engine.new_conversation()
    asked = len(server.chat_requests())
    again = list(engine.summarise(document, conversation_id=conversation, confirm_cost=True))[-1]
    assert again.cached and len(server.chat_requests()) == asked  # stored: a budget's cut is not a failure
    assert again.ending == done.ending and again.notice == done.notice
    assert answer_turn(engine, conversation).ending == done.ending


SCENARIOS = [a_stopped_answer_is_kept_and_sent_marked_unfinished, a_stopped_answer_is_not_stored_as_an_answer,
             an_answer_cut_at_its_size_limit_is_kept_with_its_code, an_answer_the_server_cut_off_is_kept_with_its_error,
             a_thinking_model_stopped_mid_thought_keeps_no_text_but_the_stop,
             a_reply_without_an_answer_is_kept_as_empty, a_reply_of_thinking_only_is_kept_as_such,
             a_question_that_fails_before_its_answer_is_kept_with_its_error,
             a_summary_of_cut_sections_is_kept_with_its_ending, a_summary_cut_to_its_budget_is_kept_with_its_note]


def run(scenario, home: Path, docs: Path, server: FakeOpenAIServer, library: str = "") -> None:
    """`scenario` on a new engine (this computer's library, or the server's at `library`) with the leave document."""
    engine = Engine(resolve_paths(home), settings(server), library=library or None)
    try:
        indexed(engine, docs)
        scenario(engine, server)
    finally:
        engine.close()

