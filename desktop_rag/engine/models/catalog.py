"""Recommended embedding models to download: size, speed, languages and their query/passage prompts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.engine.messages import message

MANIFEST_NAME = ".desktop-rag-model.json"  # written by models/download.py into every finished model folder


@dataclass(frozen=True)
class CatalogModel:
    """One recommended sentence-transformers model on the hub.

    `languages` follows the Embedder protocol: None = multilingual. Speeds are chunks/s for
    ~500-character chunks with sentence-transformers on CPU (see `speed_note`).
    """

    key: str
    repo_id: str
    display_name: str
    languages: frozenset[str] | None
    dimension: int
    download_mb: int
    chunks_per_s_en: float
    chunks_per_s_zh: float
    query_prefix: str
    passage_prefix: str
    max_seq_length: int
    license: str
    recommended: bool = False

    def summary(self, language: str = "en") -> str:
        """One line on what the model is good at, in "en" or "zh" (engine/messages.py)."""
        return message(f"model.{self.key}.summary", language)

    def language_label(self, language: str = "en") -> str:
        """The languages it reads, for a person ("~100 languages (incl. zh, en)")."""
        return message(f"model.{self.key}.languages", language)

    @property
    def folder_name(self) -> str:
        """The folder it lands in under `<data dir>/models/`."""
        return self.repo_id.replace("/", "--")


# How the speeds were obtained (2 shared CPU cores, torch float32): a randomly initialised model of the same
# architecture ran on the real token lengths of 500-character SciFact (en) and XQuAD-zh (zh) chunks, timed against
# the bundled all-MiniLM-L6-v2 in alternation, and the ratio scaled by MiniLM's measured 40 (en) / 27 (zh) chunks/s.
# bge-m3 was not run (too slow to time here): e5-small's figures scaled by the transformer compute ratio (~14x).


def speed_note(language: str = "en") -> str:
    """What the catalog's speeds are (chunks/s on which chunks and cores), in `language`."""
    return message("model.speed_note", language)

CATALOG: tuple[CatalogModel, ...] = (
    CatalogModel(
        key="multilingual-e5-small", repo_id="intfloat/multilingual-e5-small",
        display_name="multilingual-e5-small", languages=None,
        dimension=384, download_mb=494, chunks_per_s_en=18.0, chunks_per_s_zh=10.0,
        query_prefix="query: ", passage_prefix="passage: ", max_seq_length=512,
        license="MIT", recommended=True,
    ),
    CatalogModel(
        key="bge-small-zh-v1.5", repo_id="BAAI/bge-small-zh-v1.5",
        display_name="bge-small-zh-v1.5", languages=frozenset({"zh"}),
        dimension=512, download_mb=97, chunks_per_s_en=37.0, chunks_per_s_zh=17.0,
        query_prefix="为这个句子生成表示以用于检索相关文章：", passage_prefix="", max_seq_length=512,
        license="MIT",
    ),
    CatalogModel(
        key="bge-m3", repo_id="BAAI/bge-m3",
        display_name="bge-m3", languages=None,
        dimension=1024, download_mb=2290, chunks_per_s_en=1.3, chunks_per_s_zh=0.7,
        query_prefix="", passage_prefix="", max_seq_length=8192,
        license="MIT",
    ),
    CatalogModel(
        key="paraphrase-multilingual-MiniLM-L12-v2",
        repo_id="sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
        display_name="paraphrase-multilingual-MiniLM-L12-v2", languages=None,
       
        dimension=384, download_mb=480, chunks_per_s_en=21.0, chunks_per_s_zh=18.0,
        query_prefix="", passage_prefix="", max_seq_length=128,
        license="Apache-2.0",
    ),
)


def find(name: str) -> CatalogModel | None:
    """The catalog entry for a key, a repo id or a folder name (`org--name`), case-insensitive."""
    wanted = name.strip().lower()
    for model in CATALOG:
        if wanted in (model.key.lower(), model.repo_id.lower(), model.folder_name.lower()):
            return model
    return None


def read_manifest(folder: str | Path) -> dict | None:
    """The download manifest of a model folder (repo id, commit, files), or None."""
    path = Path(folder) / MANIFEST_NAME
    try:
        if path.stat().st_size > 1_000_000:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def lookup(model_id: str) -> CatalogModel | None:
    """The catalog entry behind an embedding-model setting: a repo id, a key, or a downloaded folder."""
    entry = find(model_id)
    if entry is not None:
        return entry
    manifest = read_manifest(model_id) if model_id and not model_id.startswith(("bundled:", "hash:")) else None
    if manifest and isinstance(manifest.get("repo_id"), str):
        entry = find(manifest["repo_id"])
        if entry is not None:
            return entry
    return find(Path(model_id).name) if model_id else None


def prefixes(model_id: str) -> tuple[str, str]:
    """(query_prefix, passage_prefix) for an embedding-model setting; ("", "") when unknown."""
    entry = lookup(model_id)
    return (entry.query_prefix, entry.passage_prefix) if entry else ("", "")
