"""A conversation's answer keeps whether each passage was recognised from a scan (`Hit.ocr`), so a reopened
conversation's sources say "OCR" and the viewer says the page is a scan (not that its text layer differs). Before,
the flag was not stored: every reopened passage read as typed text. A turn stored without it reads as typed text."""

from __future__ import annotations

import json

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store import conversations
from desktop_rag.engine.store.values import ChatTurn, Hit


def test_a_stored_answer_keeps_which_passages_were_recognised(tmp_path):
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:8"))
    try:
        scan = Hit(3, 0.7, "/docs/scan.pdf", 2, "", "A recognised line", file_id=1, ocr=True)
        typed = Hit(4, 0.5, "/docs/notes.md", None, "", "A typed line", file_id=2)
        cid = engine.new_conversation("Scans")
        conversations.add_message(engine.store, cid, ChatTurn("user", "What does the scan say?"))
        conversations.add_message(engine.store, cid, ChatTurn("assistant", "It says [1].", (scan, typed)))
        assert engine.messages(cid)[1].sources == (scan, typed)

        older = [{k: v for k, v in json.loads(row[0])[0].items() if k != "ocr"} | {"chunk_id": 5}
                 for row in engine.store.db.execute("SELECT sources_json FROM messages WHERE role = 'assistant'")]
        conversations.add_message(engine.store, cid, ChatTurn("user", "Again?"))
        conversations.add_message(engine.store, cid, ChatTurn("assistant", "Yes.", ()))
        engine.store.db.execute("UPDATE messages SET sources_json = ? WHERE content = 'Yes.'", (json.dumps(older),))
        engine.store.db.commit()
        assert engine.messages(cid)[3].sources[0].ocr is False  # stored before the flag was kept
    finally:
        engine.close()
