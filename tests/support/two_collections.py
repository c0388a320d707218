"""Two folders of small files on solar energy and storage, the questions searched over them and the results as text
to compare byte for byte (a collection alone, a library exported and imported), and an embedder that counts what it
embeds (an import re-embeds nothing). tests/engine/test_collections.py, test_archive.py."""

from __future__ import annotations

import json
from pathlib import Path

from desktop_rag.engine.engine import Engine
from desktop_rag.engine.models.embedders.hashing import HashEmbedder

QUERIES = ["solar energy storage", "battery chemistry for solar farms", "energy", "how do plants store energy"]


def write_files(folder: Path, docs: dict[str, str]) -> Path:
    """`docs` (file name -> text) written in `folder`; the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (folder / name).write_text(text, "utf-8")
    return folder


def two_folders(tmp_path: Path) -> tuple[Path, Path]:
    """Folders "a" (plants, soil) and "b" (grid storage, pumped hydro) below `tmp_path`, each two small files."""
    a = write_files(tmp_path / "a", {
        "plants.txt": "Plants and energy\n\nPlants store solar energy as starch; storage happens in roots and seeds.",
        "soil.txt": "Soil\n\nSoil stores water and nutrients; energy flows from plants to soil microbes.",
    })
    b = write_files(tmp_path / "b", {
        "grid.txt": "Grid storage\n\nBattery storage lets solar farms deliver energy after sunset; lithium chemistry.",
        "hydro.txt": "Pumped hydro\n\nPumped hydro is the largest energy storage on the grid, charged by solar power.",
    })
    return a, b


def search_results(engine: Engine, collection: int | None) -> str:
    """Search results as JSON text (byte comparison), every field included except the chunk ids."""
    out = []
    for q in QUERIES:
        out.append([{k: v for k, v in h.to_json(n).items() if k != "chunk_id"}
                    for n, h in enumerate(engine.search(q, 10, collection), 1)])
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


class CountingEmbedder(HashEmbedder):
    """The hashing embedder, counting passage embeddings (a re-embed would show up here)."""

    def __init__(self) -> None:
        super().__init__(64)
        self.passages = 0

    def embed(self, texts, batch_size: int = 64):
        self.passages += len(texts)
        return super().embed(texts, batch_size)

    def embed_queries(self, texts):  # questions are embedded at every search: not counted
        return HashEmbedder.embed(self, texts)
