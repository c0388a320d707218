"""The walk of one index run: which engine modules `Engine.index(paths)` enters, in order (issue 47).

Method: `sys.setprofile` records every call of a Python function defined under `desktop_rag/engine/` while
`Engine.index([folder])` indexes a fresh folder of two small files (a .md and a .txt; the deterministic hash
embedder, so no model loads and nothing but the flow is traced) into a fresh library. Calls deeper than
`--depth` frames below `Engine.index` are left out (depth 1: what `Engine.index` itself calls). The modules
entered, consecutive calls in one module merged, form the walk: "stays" are its steps, "rooms" the distinct
modules, "returns" the steps back into a module already visited (stays - rooms).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "desktop_rag" / "engine"
FILES = {
    "notes.md": "# Green tea\n\nBrew green tea at about 80 degrees for two minutes.\n\n## Storage\n\nKeep it dry.\n",
    "coffee.txt": "Coffee guide\n\nGrind the beans just before brewing; water just off the boil.\n",
}


def walk(depth: int) -> list[str]:
    """The engine modules entered by one index run, in order (consecutive calls in one module merged)."""
    from desktop_rag.config import AppPaths, Settings
    from desktop_rag.engine.engine import Engine

    with tempfile.TemporaryDirectory(prefix="desktop-rag-walk-") as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        for name, text in FILES.items():
            (folder / name).write_text(text, encoding="utf-8")
        root = Path(tmp) / "data"
        paths = AppPaths(root, root / "config", root / "logs")
        engine = Engine(paths, Settings(embedding_model="hash:384"))
        try:
            engine.store.files()  # the library opened (schema created) before the trace
            return _traced(lambda: engine.index([folder]), depth)
        finally:
            engine.close()


def _traced(run, depth: int) -> list[str]:
    steps: list[str] = []
    stack: list[object] = []  # the frames below Engine.index's, innermost last
    engine_root = str(ENGINE) + "/"

    def profile(frame, event, _arg) -> None:
        if event == "call":
            code = frame.f_code
            if not stack:
                if code.co_name == "index" and code.co_filename.endswith("engine/engine.py"):
                    stack.append(frame)
                return
            stack.append(frame)
            if len(stack) - 1 <= depth and code.co_filename.startswith(engine_root):
                module = code.co_filename[len(engine_root):]
                if not steps or steps[-1] != module:
                    steps.append(module)
        elif event == "return" and stack and stack[-1] is frame:
            stack.pop()

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=2, help="frames below Engine.index (default 2)")
    parser.add_argument("--steps", action="store_true", help="print the walk itself")
    args = parser.parse_args(argv)
    steps = walk(args.depth)
    rooms = len(set(steps))
    print(json.dumps({"bench": "index_walk", "depth": args.depth, "stays": len(steps), "rooms": rooms,
                      "returns": len(steps) - rooms}))
    if args.steps:
        print("\n".join(steps))


if __name__ == "__main__":
    main()
