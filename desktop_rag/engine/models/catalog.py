"""Recommended embedding models to download: size, speed, languages and their query/passage prompts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

MANIFEST_NAME = ".desktop-rag-model.json"  # written by model_download into every finished model folder


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
    language_label: str
    dimension: int
    download_mb: int
    chunks_per_s_en: float
    chunks_per_s_zh: float
    query_prefix: str
    passage_prefix: str
    max_seq_length: int
    summary_en: str
    summary_zh: str
    license: str
    recommended: bool = False
    language_label_zh: str = ""

    @property
    def folder_name(self) -> str:
        """The folder it lands in under `<data dir>/models/`."""
        return self.repo_id.replace("/", "--")


# How the speeds were obtained (2 shared CPU cores, torch float32): a randomly initialised model of the same
# architecture ran on the real token lengths of 500-character SciFact (en) and XQuAD-zh (zh) chunks, timed against
# the bundled all-MiniLM-L6-v2 in alternation, and the ratio scaled by MiniLM's measured 40 (en) / 27 (zh) chunks/s.
# bge-m3 was not run (too slow to time here): e5-small's figures scaled by the transformer compute ratio (~14x).
SPEED_NOTE = ("approximate chunks/s on ~500-character chunks on 2 CPU cores (sentence-transformers, float32), "
              "English / Chinese, relative to the bundled model's 40 / 27")

CATALOG: tuple[CatalogModel, ...] = (
    CatalogModel(
        key="multilingual-e5-small", repo_id="intfloat/multilingual-e5-small",
        display_name="multilingual-e5-small", languages=None, language_label="~100 languages (incl. zh, en)",
        dimension=384, download_mb=494, chunks_per_s_en=18.0, chunks_per_s_zh=10.0,
        query_prefix="query: ", passage_prefix="passage: ", max_seq_length=512,
        summary_en="Small and multilingual: a Chinese question finds English passages and the reverse.",
        summary_zh="小巧的多语言模型：中文问题能找到英文段落，反之亦然。",
        license="MIT", recommended=True, language_label_zh="约 100 种语言（含中、英）",
    ),
    CatalogModel(
        key="bge-small-zh-v1.5", repo_id="BAAI/bge-small-zh-v1.5",
        display_name="bge-small-zh-v1.5", languages=frozenset({"zh"}), language_label="Chinese",
        dimension=512, download_mb=97, chunks_per_s_en=37.0, chunks_per_s_zh=17.0,
        query_prefix="为这个句子生成表示以用于检索相关文章：", passage_prefix="", max_seq_length=512,
        summary_en="Small and fast, for Chinese libraries; weak across languages.",
        summary_zh="小而快，适合中文资料库；跨语言检索较弱。",
        license="MIT", language_label_zh="中文",
    ),
    CatalogModel(
        key="bge-m3", repo_id="BAAI/bge-m3",
        display_name="bge-m3", languages=None, language_label="100+ languages (incl. zh, en)",
        dimension=1024, download_mb=2290, chunks_per_s_en=1.3, chunks_per_s_zh=0.7,
        query_prefix="", passage_prefix="", max_seq_length=8192,
        summary_en="Best multilingual quality, but large (2.3 GB) and slow on a laptop CPU.",
        summary_zh="多语言效果最好，但体积大（2.3 GB），在笔记本 CPU 上较慢。",
        license="MIT", language_label_zh="100 多种语言（含中、英）",
    ),
    CatalogModel(
        key="paraphrase-multilingual-MiniLM-L12-v2",
        repo_id="sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
        display_name="paraphrase-multilingual-MiniLM-L12-v2", languages=None,
        language_label="50+ languages (incl. zh, en)",
        dimension=384, download_mb=480, chunks_per_s_en=21.0, chunks_per_s_zh=18.0,
        query_prefix="", passage_prefix="", max_seq_length=128,
        summary_en="Multilingual and fairly fast; reads only the first ~128 tokens of a chunk.",
        summary_zh="多语言且较快；每个片段只读取前约 128 个词元。",
        license="Apache-2.0", language_label_zh="50 多种语言（含中、英）",
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
