"""Context compression: the sentences that carry the question are sent, passages keep their [n] and label."""

from __future__ import annotations

import re

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.compression import compress, compression_mode, sent_text, sentence_spans
from desktop_rag.engine.answer.prompting import build_messages
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.values import Hit

TEA = ("Tea grows on hillsides in the south. The leaves are picked by hand in spring. "
       "Green tea is brewed with water at about eighty degrees. Boiling water makes it bitter. "
       "Many people drink it after meals.")
BUS = "City buses run every ten minutes during the day. At night they run every half hour. Tickets cost two yuan."
ZH = "学生购买火车票可以享受半价优惠。购票时需要出示学生证。每年最多可以购买四次。车站在城市的北边。"


def hit(n: int, text: str, path: str) -> Hit:
    return Hit(n, 1.0 / n, path, None, "", text, file_id=n)


def test_always_sends_the_answering_sentence_and_less_text():
    hits = [hit(1, TEA, "/d/tea.txt"), hit(2, BUS, "/d/bus.txt"), hit(3, ZH, "/d/火车票.txt")]
    out = compress("What temperature should the water for green tea be?", hits, "always", 10_000)
    assert [h.chunk_id for h in out] == [1, 2, 3] and [h.text for h in out] == [TEA, BUS, ZH]
    sent = sent_text(out[0])
    assert "eighty degrees" in sent and "Many people drink it after meals." not in sent
    assert sum(len(sent_text(h)) for h in out) < 0.6 * sum(len(h.text) for h in hits)
    for h in out:  # the focus spans are inside the passage text (the viewer highlights them)
        assert all(0 <= a <= b <= len(h.text) for a, b in h.focus)


def test_a_chinese_question_keeps_its_chinese_sentence():
    out = compress("学生买火车票有什么优惠？", [hit(1, ZH, "/d/火车票.txt"), hit(2, TEA, "/d/tea.txt")], "always", 10_000)
    assert "半价优惠" in sent_text(out[0])
    assert "车站在城市的北边" not in sent_text(out[0])


def test_auto_leaves_passages_under_the_budget_alone_and_off_never_compresses():
    hits = [hit(1, TEA, "/d/tea.txt"), hit(2, BUS, "/d/bus.txt")]
    assert compress("green tea water", hits, "auto", 10_000) == hits
    assert compress("green tea water", hits, "off", 1) == hits
    squeezed = compress("green tea water", hits, "auto", 30)
    assert all(h.focus for h in squeezed) and "eighty degrees" in sent_text(squeezed[0])


def test_the_passage_numbers_and_labels_are_those_of_the_uncompressed_prompt():
    hits = [hit(1, TEA, "/d/tea.txt"), hit(2, BUS, "/d/bus.txt"), hit(3, ZH, "/d/火车票.txt")]
    question = "How often do city buses run at night?"
    plain, used_plain = build_messages(question, hits)
    squeezed, used = build_messages(question, compress(question, hits, "always", 10_000))
    labels = re.compile(r"^\[\d+\] .*$", re.M)
    assert labels.findall(squeezed[-1]["content"]) == labels.findall(plain[-1]["content"])
    assert [h.chunk_id for h in used] == [h.chunk_id for h in used_plain]
    block_2 = squeezed[-1]["content"].split("[2] bus.txt")[1].split("[3] ")[0]
    assert "half hour" in block_2 and "eighty degrees" not in block_2  # passage 2 carries its own sentences
    assert "Tickets cost two yuan" not in block_2  # and only those that were kept


def test_sentence_spans_find_the_sentences_in_wrapped_text():
    text = "First line of a\nwrapped sentence. 第二句在这里。\n\nThird one."
    spans = sentence_spans(text)
    assert [text[a:b] for a, b in spans] == ["First line of a\nwrapped sentence.", "第二句在这里。", "Third one."]


def test_the_mode_setting_and_its_environment_variable(monkeypatch, tmp_path):
    assert [compression_mode(m) for m in ("off", "Always", "bogus", "")] == ["off", "always", "auto", "auto"]
    from desktop_rag.config import load_settings

    monkeypatch.setenv("DESKTOP_RAG_CONTEXT_COMPRESSION", "off")
    assert load_settings(resolve_paths(tmp_path)).context_compression == "off"


@pytest.mark.parametrize("question, expect", [("How often do buses run at night?", "half hour"),
                                              ("学生买火车票有什么优惠？", "半价")])
def test_context_works_on_a_library_without_vectors(tmp_path, question, expect):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text(TEA, encoding="utf-8")
    (docs / "bus.txt").write_text(BUS, encoding="utf-8")
    (docs / "火车票.txt").write_text(ZH, encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", context_compression="always"))
    engine.index([docs], embed=False)
    assert not engine.store.has_vectors()
    shown = engine.context(question)
    engine.close()
    assert shown["passages"][0]["n"] == 1 and expect in shown["passages"][0]["text"]
    assert 0 < shown["tokens_after"] < shown["tokens_before"]


def test_the_context_command_prints_one_json_object_per_question(tmp_path, capsys, monkeypatch):
    import json

    from desktop_rag.cli.main import main

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bus.txt").write_text(BUS, encoding="utf-8")
    (docs / "火车票.txt").write_text(ZH, encoding="utf-8")
    home = tmp_path / "home"
    monkeypatch.setenv("DESKTOP_RAG_EMBEDDING_MODEL", "hash:64")
    monkeypatch.setenv("DESKTOP_RAG_CONTEXT_COMPRESSION", "always")
    assert main(["--data-dir", str(home), "index", str(docs), "--json"]) == 0
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"_id": "en", "text": "How often do buses run at night?"}\n\n'
                       '{"_id": "zh", "text": "学生买火车票有什么优惠？"}\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["--data-dir", str(home), "context", "--queries", str(queries)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["_id"] for line in lines] == ["en", "zh"]
    for line in lines:
        assert {"n", "path", "text"} <= set(line["passages"][0]) and line["tokens_after"] <= line["tokens_before"]
    assert main(["--data-dir", str(home), "context", "学生买火车票有什么优惠？", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    ticket = next(p for p in shown["passages"] if p["path"].endswith("火车票.txt"))  # (hash vectors: any rank)
    assert "半价" in ticket["text"] and "车站在城市的北边" not in ticket["text"]
