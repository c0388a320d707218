"""Issue 16 item 10: the parser child has a memory cap and a cap on what it sends back; a .docx that inflates
to 1 GiB, a file that needs more memory than the cap, and a reply larger than the cap each get their own reason.

Every test uses the real spawn child (SafeParser), not a patched one.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.parsing import MAX_MEMORY_MB, SafeParser
from desktop_rag.engine.ingest.documents import ParsedDocument, Section
from tests.support import DATA

HOOK = "tests.security.test_parser_limits:install_heading_bomb_loader"
MIB = 1 << 20

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Default Extension="bin" ContentType="image/png"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
)
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="word/document.xml"/></Relationships>'
)
_IMAGE_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"


def inflating_docx(path: Path, parts: int, text: str = "A short memo about the spring fair.") -> Path:
    """A real .docx whose document references `parts` pictures of 1 MiB of zeros each (~5 KB each packed).

    Each entry stays at 1 MiB, under the per-entry ratio check, so only the unpacked total gives it away;
    python-docx loads every referenced part into memory.
    """
    body = "".join(f"<w:p><w:r><w:t>{t}</w:t></w:r></w:p>" for t in text.split("\n"))
    document = ('<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/'
                f'wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>')
    rels = "".join(f'<Relationship Id="rIdP{i}" Type="{_IMAGE_REL}" Target="media/p{i}.bin"/>' for i in range(parts))
    buf = io.BytesIO()
    zero = bytes(MIB)
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES)
        zf.writestr("_rels/.rels", _ROOT_RELS)
        zf.writestr("word/document.xml", document)
        zf.writestr("word/_rels/document.xml.rels",
                    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                    f'package/2006/relationships">{rels}</Relationships>')
        for i in range(parts):
            zf.writestr(f"word/media/p{i}.bin", zero)
    path.write_bytes(buf.getvalue())
    return path


def install_heading_bomb_loader() -> None:
    """Runs in the parser child: '.fat' files parse to a little text under a 3 MB heading (not counted as text)."""
    from desktop_rag.engine.ingest import loaders

    def fat(_path: Path) -> ParsedDocument:
        return ParsedDocument((Section("tiny body", heading_path=("H" * (3 * MIB),)),))

    loaders.register(".fat", fat)


def test_docx_that_inflates_to_1_gib_gets_its_own_reason(tmp_path: Path) -> None:
    bomb = inflating_docx(tmp_path / "inflates.docx", parts=1000)  # 1000 MiB unpacked, ~5 MB on disk
    assert bomb.stat().st_size < 8 * MIB  # far under the 100 MB file-size limit
    with SafeParser(timeout_s=120) as parser:
        with pytest.raises(LoadError) as info:
            parser.parse(bomb)
        assert "too large when unpacked" in str(info.value) and "zip bomb" not in str(info.value)
        assert "1000 MB" in str(info.value)
        assert parser.parse(DATA / "good" / "manual.docx").sections  # the same child goes on


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; RLIMIT_AS is Linux/BSD only")
def test_child_runs_under_an_address_space_cap() -> None:
    with SafeParser() as parser:
        parser.start()
        assert parser.memory_capped
        limits = Path(f"/proc/{parser.child_pid}/limits").read_text()
        (line,) = [ln for ln in limits.splitlines() if ln.startswith("Max address space")]
        assert int(line.split()[3]) == MAX_MEMORY_MB * MIB  # the soft limit


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced on Linux")
def test_file_over_the_memory_cap_gets_its_own_reason_and_the_child_is_replaced(tmp_path: Path) -> None:
    heavy = inflating_docx(tmp_path / "heavy.docx", parts=450)  # under the unpacked limit, over a 300 MB cap
    with SafeParser(timeout_s=120, max_memory_mb=300) as parser:
        parser.start()
        first_child = parser.child_pid
        with pytest.raises(LoadError) as info:
            parser.parse(heavy)
        assert str(info.value) == ("Reading this file needs more memory than the limit of 300 MB for one file; "
                                   "it was skipped")
        assert parser.parse(DATA / "good" / "manual.docx").sections  # a fresh child reads the next file
        assert parser.child_pid != first_child and parser.restarts == 1


def test_text_over_the_cap_is_not_sent_back(tmp_path: Path) -> None:
    long_doc = inflating_docx(tmp_path / "long.docx", parts=0, text="\n".join(["word " * 200] * 30))  # ~30k chars
    with SafeParser(timeout_s=60, max_text_chars=10_000) as parser:
        with pytest.raises(LoadError, match=r"more text than the limit of 10,000 characters for one file"):
            parser.parse(long_doc)


def test_reply_over_the_byte_cap_is_refused_by_the_parent(tmp_path: Path) -> None:
    fat = tmp_path / "x.fat"
    fat.write_text("x")
    with SafeParser(timeout_s=60, max_text_chars=100_000, child_suffixes=frozenset({".fat", ".docx"}),
                    init_hook=HOOK) as parser:
        with pytest.raises(LoadError, match=r"more text than the limit of 100,000 characters"):
            parser.parse(fat)  # 3 MB of heading: over 4 bytes x 100,000 characters + 1 MiB
        assert parser.parse(DATA / "good" / "manual.docx").sections
