"""`desktop-rag eval` and `forget-grades` through the real CLI (issue 39): an imported BEIR set on the bundled
samples gives bench/quality.py's figures for the same library; the user's marked passages are measured, and one
whose passage vanished or changed is reported as stale; `ask --json` stays as it was."""

from __future__ import annotations

import json
import subprocess

import pytest

from bench.common import Beir
from bench.quality import evaluate, hybrid_ranker
from desktop_rag.config import Settings, resolve_paths, resource_path
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.answer.events import SourcesEvent
from tests.support.hash_cli import ENV, run_cli, use_locale

MODEL = "hash:64"
QUERIES = {"q1": "What water temperature is best for coffee?", "q2": "新办公室在哪里？",
           "q3": "How long should green tea steep?", "q4": "冲咖啡时咖啡粉和水的比例是多少？",
           "q5": "How do I add documents to the library?", "q6": "Which floor is the new office on?"}
QRELS = [("q1", "coffee-brewing-guide.txt", 1), ("q2", "办公室搬迁通知", 1), ("q3", "绿茶冲泡指南.md", 1),
         ("q4", "coffee-brewing-guide", 1), ("q5", "getting-started.md", 1), ("q6", "办公室搬迁通知.txt", 1),
         ("q6", "getting-started", 0), ("q9", "coffee-brewing-guide", 1)]


def last_json(out: subprocess.CompletedProcess) -> dict:
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    home = tmp_path_factory.mktemp("samples")
    engine = Engine(resolve_paths(home), Settings(embedding_model=MODEL))
    assert not engine.index([resource_path("samples")]).failed
    engine.close()
    return home


def test_an_imported_beir_set_gives_bench_quality_figures_on_the_samples(samples, tmp_path):
    queries, qrels = tmp_path / "queries.jsonl", tmp_path / "qrels.tsv"
    queries.write_text("".join(json.dumps({"_id": q, "text": t}, ensure_ascii=False) + "\n"
                               for q, t in QUERIES.items()), encoding="utf-8")
    qrels.write_text("query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{s}\n" for q, d, s in QRELS),
                     encoding="utf-8")
    report = last_json(run_cli(samples, "eval", "--queries", str(queries), "--qrels", str(qrels), "--json"))
    assert report["queries"] == 6 and report["source"] == "import"
    assert {"recall@5", "precision@5", "ndcg@10"} <= report.keys()
    assert list(report["modes"]) == ["hybrid", "dense", "keyword", "compression off", "compression on"]

    engine = Engine(resolve_paths(samples), Settings(embedding_model=MODEL))
    judged = {"q1": {"coffee-brewing-guide"}, "q2": {"办公室搬迁通知"}, "q3": {"绿茶冲泡指南"},
              "q4": {"coffee-brewing-guide"}, "q5": {"getting-started"}, "q6": {"办公室搬迁通知"}}
    bench = evaluate(Beir({}, QUERIES, judged), hybrid_ranker(engine))
    engine.close()
    assert report["recall@5"] == pytest.approx(bench["recall@5"], abs=1e-6)
    assert report["ndcg@10"] == pytest.approx(bench["ndcg@10"], abs=1e-6)
    assert 0 < report["precision@5"] <= 0.2 + 1e-9  # one relevant document per question

    text = run_cli(samples, "eval", "--queries", str(queries), "--qrels", str(qrels))
    assert text.returncode == 0 and "recall@5" in text.stdout and "hybrid" in text.stdout
    assert text.stdout.startswith("6 labelled questions\n")  # (it was "6 labelled question(s)")
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"_id": "q1", "text": QUERIES["q1"]}) + "\n", encoding="utf-8")
    assert run_cli(samples, "eval", "--queries", str(one), "--qrels", str(qrels)).stdout.startswith("1 labelled question\n")


def test_a_bad_labelled_set_is_refused_with_its_line(samples, tmp_path):
    queries, qrels = tmp_path / "queries.jsonl", tmp_path / "qrels.tsv"
    queries.write_text('{"_id": "q1", "text": "coffee"}\nnot json\n', encoding="utf-8")
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\tcoffee-brewing-guide\t1\n", encoding="utf-8")
    out = run_cli(samples, "eval", "--queries", str(queries), "--qrels", str(qrels), "--json")
    assert out.returncode == 1 and "line 2" in out.stderr
    assert run_cli(samples, "eval", "--queries", str(queries)).returncode == 2  # both files, or neither


@pytest.mark.parametrize("queries_text, qrels_text, problem", [
    ('{"_id": "q1", "text": "coffee"}\nnot json\n', "h\nq1\tcoffee\t1\n", "q.jsonl 第 2 行：不是 JSON（"),
    ('{"_id": "q1", "text": "coffee"}\n["q2"]\n', "h\nq1\tcoffee\t1\n", '第 2 行：没有 "_id" 和 "text"。'),
    ('{"_id": "q1", "text": "coffee"}\n', "h\nq1 coffee 1\n", "q.tsv 第 2 行：不是 query-id、corpus-id 和 score。"),
    ('{"_id": "q1", "text": "' + "咖啡" * 60_000 + '"}\n', "h\n", "q.jsonl 第 1 行：行太长。")])
def test_a_bad_labelled_sets_problem_is_said_in_chinese(samples, tmp_path, monkeypatch, queries_text, qrels_text,
                                                        problem):
    """Under a Chinese locale the whole error is Chinese, the problem with the line too (it was "not JSON (...)",
    'no "_id" and "text"', "not query-id, corpus-id and score", "line too long" inside the Chinese sentence)."""
    (tmp_path / "q.jsonl").write_text(queries_text, encoding="utf-8")
    (tmp_path / "q.tsv").write_text(qrels_text, encoding="utf-8")
    use_locale(monkeypatch, "zh_CN.UTF-8", ENV)
    out = run_cli(samples, "eval", "--queries", str(tmp_path / "q.jsonl"), "--qrels", str(tmp_path / "q.tsv"))
    assert out.returncode == 1 and out.stderr.startswith("错误：") and problem in out.stderr, out.stderr


def test_a_labelled_set_that_cannot_be_read_or_decoded_is_named_with_its_line(samples, tmp_path, monkeypatch):
    """A byte that is not UTF-8 is named by its line (it was "line 0: 'utf-8' codec can't decode byte 0xff in
    position 31", whichever line it was on); a missing file or a folder says so, not "line 0: [Errno 2] No such file
    or directory: '…'"."""
    queries, qrels = tmp_path / "queries.jsonl", tmp_path / "qrels.tsv"
    queries.write_bytes(b'{"_id": "q1", "text": "coffee"}\n\n{"_id": "q2", "text": "caf\xe9"}\n')
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\tcoffee-brewing-guide\t1\n", encoding="utf-8")
    out = run_cli(samples, "eval", "--queries", str(queries), "--qrels", str(qrels))
    assert out.returncode == 1 and out.stderr.startswith(f"error: {queries}, line 3: not UTF-8 text."), out.stderr
    for missing in (tmp_path / "nowhere.jsonl", tmp_path):
        out = run_cli(samples, "eval", "--queries", str(missing), "--qrels", str(qrels))
        assert out.returncode == 1 and out.stderr.startswith(f"error: {missing} cannot be read ("), out.stderr
        assert "Errno" not in out.stderr and "line 0" not in out.stderr
    use_locale(monkeypatch, "zh_CN.UTF-8", ENV)
    chinese = run_cli(samples, "eval", "--queries", str(tmp_path / "nowhere.jsonl"), "--qrels", str(qrels))
    assert chinese.stderr.startswith(f"错误：无法读取 {tmp_path / 'nowhere.jsonl'}（"), chinese.stderr


@pytest.mark.parametrize("lines", ["q1\tcoffee-brewing-guide\t1\n",  # no header: its one line taken for it
                                   "query-id\tcorpus-id\tscore\nQ1\tcoffee-brewing-guide\t1\n"])  # another id
def test_a_qrels_file_that_judges_none_of_the_questions_is_refused_saying_so(samples, tmp_path, lines):
    queries, qrels = tmp_path / "queries.jsonl", tmp_path / "qrels.tsv"
    queries.write_text('{"_id": "q1", "text": "coffee"}\n', encoding="utf-8")
    qrels.write_text(lines, encoding="utf-8")
    out = run_cli(samples, "eval", "--queries", str(queries), "--qrels", str(qrels))
    assert out.returncode == 1 and out.stdout == ""  # not "No labelled questions: mark the right passage ..."
    assert f"{qrels} judges none of the 1 question in {queries}" in out.stderr


def test_the_users_marked_passages_are_measured_and_stale_ones_reported(tmp_path):
    folder, home = tmp_path / "docs", tmp_path / "home"
    folder.mkdir()
    texts = {"tea.txt": "Green tea is brewed with water at about eighty degrees for two minutes.",
             "bus.txt": "City buses run every ten minutes during the day and every half hour at night.",
             "move.txt": "The office moves to the fifth floor on Monday; boxes go by lift."}
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(home), Settings(embedding_model=MODEL))
    engine.index([folder])
    for question, name in (("How hot should the water be for green tea?", "tea.txt"),
                           ("When do the buses run at night?", "bus.txt"),
                           ("Which floor does the office move to?", "move.txt")):
        events = list(engine.ask(question))
        sources = next(e.hits for e in events if isinstance(e, SourcesEvent))
        right = next(h for h in sources if h.path.endswith(name))
        engine.review.mark_passage(events[-1].answer_id, right.chunk_id, right=True)
        engine.review.set_grade(events[-1].answer_id, "right")
    engine.close()

    report = last_json(run_cli(home, "eval", "--json"))
    assert report["source"] == "grades" and report["queries"] == 3 and report["stale"] == []
    assert report["recall@5"] == 1.0 and report["precision@5"] == pytest.approx(0.2)

    (folder / "bus.txt").write_text("The buses are replaced by trams from May.", encoding="utf-8")  # changed
    (folder / "move.txt").unlink()  # vanished
    indexed = last_json(run_cli(home, "index", "--json"))
    assert indexed["updated"] == 1 and indexed["removed"] == 1
    report = last_json(run_cli(home, "eval", "--json"))
    assert report["queries"] == 1 and report["recall@5"] == 1.0
    assert sorted((s["question"], s["reason"]) for s in report["stale"]) == [
        ("When do the buses run at night?", "changed"), ("Which floor does the office move to?", "vanished")]
    text = run_cli(home, "eval")
    assert "stale (vanished): Which floor does the office move to?" in text.stdout

    assert last_json(run_cli(home, "forget-grades", "--json")) == {"forgotten": 3}
    assert last_json(run_cli(home, "eval", "--json"))["queries"] == 0


def test_ask_json_is_unchanged_though_the_answer_is_logged(samples):
    answer = last_json(run_cli(samples, "ask", "How long should green tea steep?", "--json"))
    assert list(answer) == ["question", "answer", "mode", "cached", "notice", "sources"]  # no field of the log
    assert list(answer["sources"][0]) == ["rank", "chunk_id", "score", "path", "page", "heading", "text", "ocr"]
    engine = Engine(resolve_paths(samples), Settings(embedding_model=MODEL))
    assert engine.review.stats().answers >= 1
    engine.close()
