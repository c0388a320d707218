"""The `models` and `download-model` CLI commands: list recommended embedding models, download one."""

from __future__ import annotations

import argparse
import json
import sys
import time

from desktop_rag.cli.texts import language, say
from desktop_rag.config import AppPaths, load_settings
from desktop_rag.engine import UsageError, model_catalog, model_download


def cmd_models(paths: AppPaths, args: argparse.Namespace) -> int:
    """Print the catalog with sizes, speeds and where each model is (or would be) on disk."""
    rows = []
    for m in model_catalog.CATALOG:
        folder = model_download.local_model_path(paths.data_dir, m.repo_id)
        rows.append({"key": m.key, "repo_id": m.repo_id, "languages": sorted(m.languages) if m.languages else None,
                     "language_label": m.language_label(), "dimension": m.dimension, "download_mb": m.download_mb,
                     "chunks_per_s_en": m.chunks_per_s_en, "chunks_per_s_zh": m.chunks_per_s_zh,
                     "query_prefix": m.query_prefix, "passage_prefix": m.passage_prefix,
                     "recommended": m.recommended,
                     "downloaded": model_download.is_downloaded(paths.data_dir, m.repo_id),
                     "path": str(folder)})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False), flush=True)
        return 0
    for m, r in zip(model_catalog.CATALOG, rows, strict=True):
        # (the key padded here: a text value's format spec is not applied by the table's formatter)
        state = say("models.downloaded", path=r["path"]) if r["downloaded"] else say("models.not_downloaded")
        print(say("models.row", mark="*" if r["recommended"] else " ", key=f"{r['key']:<40}", mb=r["download_mb"],
                  dimension=r["dimension"], en=r["chunks_per_s_en"], zh=r["chunks_per_s_zh"],
                  languages=m.language_label(language())))
        print(f"  {'':<40} {r['repo_id']}; {state}")
    print(say("models.footer", note=model_catalog.speed_note(language())))
    return 0


def cmd_download_model(paths: AppPaths, args: argparse.Namespace) -> int:
    """Download a catalog model (or any org/name repo) into the data dir and print its folder."""
    entry = model_catalog.find(args.name)
    repo_id = entry.repo_id if entry else args.name
    if not entry and "/" not in repo_id:
        raise UsageError.coded("cli_unknown_model", name=repr(args.name))
    endpoint = model_download.resolve_endpoint(args.hub or load_settings(paths).hub_endpoint)
    progress = _TerminalDownloadProgress()
    try:
        folder = model_download.download_model(repo_id, paths.data_dir, endpoint=endpoint, on_progress=progress)
    finally:
        progress.finish()
    if args.json:
        print(json.dumps({"repo_id": repo_id, "path": str(folder), "endpoint": endpoint}, ensure_ascii=False))
    else:
        print(say("models.done", repo=repo_id, folder=folder))
    return 0


class _TerminalDownloadProgress:
    """One self-rewriting line on stderr, only when it is a terminal."""

    def __init__(self, stream=None) -> None:
        self.stream = stream if stream is not None else sys.stderr  # stderr as it is now, not at import
        self.enabled = self.stream.isatty()
        self._last = 0.0

    def __call__(self, p: model_download.DownloadProgress) -> None:
        now = time.monotonic()
        if not self.enabled or (p.phase == "downloading" and now - self._last < 0.2):
            return
        self._last = now
        line = say("download.progress", phase=say(f"download.{p.phase}"), done=p.bytes_done / 1e6, total=p.bytes_total / 1e6)
        if p.rate:
            line += say("download.rate", rate=p.rate / 1e6)
        if p.eta_seconds is not None:
            line += say("progress.eta", seconds=p.eta_seconds)
        self.stream.write("\r\033[K" + line)
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
