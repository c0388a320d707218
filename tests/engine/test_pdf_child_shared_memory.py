"""The viewer's PDFium child passes a page's pixels through shared memory (document/pdf_child.py); where the
system's shared memory is smaller than the page (Docker's 64 MB /dev/shm, or a full one), the page comes through
the pipe instead of failing. A real small /dev/shm: a tmpfs of 1 MB mounted over it in a mount namespace of its own
(`unshare`), a page of 2 MB drawn there by a real child."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.engine.document.pdf_child import PdfPages
from tests.support import REPO
from tests.support import pdf_build as build

DRAW = """
import hashlib, json, sys
from desktop_rag.engine.document.pdf_child import PdfPages
if __name__ == "__main__":
    pages = PdfPages()
    try:
        drawn = []
        for scale in (1.0, 0.3):  # 2 MB (past the 1 MB), then 181 kB (within it)
            image = pages.open(sys.argv[1]).render(0, scale)
            drawn.append([image.width, image.height, hashlib.sha256(image.data).hexdigest()])
        print(json.dumps(drawn))
    except Exception as exc:
        print(json.dumps(getattr(exc, "code", repr(exc))))
    finally:
        pages.close()
"""


def _draw_with_small_shared_memory(pdf: Path) -> object:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare here to give the child a small /dev/shm")
    script = pdf.parent / "draw.py"
    script.write_text(DRAW, "utf-8")
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
         'mount -t tmpfs -o size=1m tmpfs /dev/shm || exit 77; exec "$0" "$1" "$2"', sys.executable, str(script),
         str(pdf)], cwd=REPO, capture_output=True, text=True, timeout=120)
    if done.returncode in (1, 77) and not done.stdout:  # no user namespaces, or no mount in one
        pytest.skip(f"no mount namespace with a small /dev/shm here: {done.stderr.strip()[:200]}")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_page_larger_than_the_shared_memory_is_drawn_through_the_pipe(tmp_path: Path) -> None:
    pdf = tmp_path / "page.pdf"
    pdf.write_bytes(build.standard_pdf([["A page drawn where /dev/shm holds 1 MB only."]]))
    pages = PdfPages()
    try:
        expected = [[image.width, image.height, hashlib.sha256(image.data).hexdigest()]
                    for image in (pages.open(pdf).render(0, scale) for scale in (1.0, 0.3))]
    finally:
        pages.close()
    assert expected[0][:2] == [595, 842]  # 2 MB of pixels
    assert _draw_with_small_shared_memory(pdf) == expected  # without the room reserved: "view_page_failed"
