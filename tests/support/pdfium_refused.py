"""`python -m tests.support.pdfium_refused ARGS...` runs `desktop-rag ARGS...` with PDFium refused in its own process:
importing pypdfium2 there ends it at once with exit code PDFIUM_HERE (its children, the parser's and the viewer's,
import it freely: they import this module as `__mp_main__`, which installs nothing)."""

from __future__ import annotations

import importlib.abc
import os
import sys

PDFIUM_HERE = 86


class RefusePdfium(importlib.abc.MetaPathFinder):
    """Ends the process when pypdfium2 is imported."""

    def find_spec(self, name: str, path=None, target=None):
        if name == "pypdfium2" or name.startswith("pypdfium2."):
            sys.stderr.write(f"PDFium imported in the command's own process ({name})\n")
            sys.stderr.flush()
            os._exit(PDFIUM_HERE)
        return None


if __name__ == "__main__":
    sys.meta_path.insert(0, RefusePdfium())
    from desktop_rag.cli.main import main

    sys.argv[0] = "desktop-rag"
    raise SystemExit(main())
