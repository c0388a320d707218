"""Legacy .doc/.ppt: a clear message without LibreOffice, or without the component a format needs; with a converter,
its result is read.

Here conversion runs against a stand-in `soffice` script that behaves as LibreOffice's command line does (writes
<name>.docx into --outdir), and one that hangs; real LibreOffice: tests/engine/test_legacy_office_formats.py.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders import legacy_office
from desktop_rag.engine.ingest.loaders.legacy_office import load_legacy_office

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the stand-in converter is a POSIX shell script")


def _no_soffice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(legacy_office.shutil, "which", lambda _name: None)
    monkeypatch.setattr(legacy_office, "_USUAL", ())


@pytest.mark.parametrize(("suffix", "target", "app"), [(".doc", ".docx", "Word"), (".ppt", ".pptx", "PowerPoint")])
def test_without_libreoffice_the_message_names_the_format_and_the_way_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str, target: str, app: str
) -> None:
    _no_soffice(monkeypatch)
    path = tmp_path / f"old{suffix}"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504)  # an OLE2 compound file header
    with pytest.raises(LoadError) as caught:
        load_legacy_office(path)
    message = str(caught.value)
    assert f"({suffix})" in message and f"save it as {target}" in message and app in message
    assert "LibreOffice is not installed" in message


def _fake_soffice(folder: Path, body: str) -> Path:
    script = folder / "soffice"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_converted_result_is_read_by_its_loader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import docx

    made = tmp_path / "made.docx"
    document = docx.Document()
    document.add_heading("Old memo", level=1)
    document.add_paragraph("The 1998 memo about the river survey.")
    document.save(str(made))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "args.txt"
    # like LibreOffice: the last argument is the source, --outdir where <stem>.docx goes
    _fake_soffice(bin_dir, f'echo "$@" > "{log}"\nfor a; do last="$a"; done\n'
                           f'while [ "$1" != "--outdir" ]; do shift; done\nmkdir -p "$2"\n'
                           f'stem=$(basename "$last" .doc)\ncp "{made}" "$2/$stem.docx"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    source = tmp_path / "-rf memo.doc"  # a hostile name never reaches the command line
    source.write_bytes(b"\xd0\xcf\x11\xe0")
    doc = load_legacy_office(source)
    assert doc.sections[0].heading_path == ("Old memo",)
    assert "river survey" in doc.sections[0].text
    args = log.read_text()
    assert "--headless" in args and "--convert-to docx" in args and "-rf memo" not in args
    assert "-env:UserInstallation=file://" in args


def test_a_hanging_converter_is_killed_in_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake_soffice(bin_dir, "sleep 60 & sleep 60\n")  # a child of its own too, as soffice.bin is
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(legacy_office, "CONVERT_SECONDS", 1)
    path = tmp_path / "slow.ppt"
    path.write_bytes(b"\xd0\xcf\x11\xe0")
    started = time.monotonic()
    with pytest.raises(LoadError, match="did not finish converting"):
        load_legacy_office(path)
    assert time.monotonic() - started < 10


def test_converter_that_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake_soffice(bin_dir, "exit 0\n")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    path = tmp_path / "broken.ppt"
    path.write_bytes(b"junk")
    with pytest.raises(LoadError, match="could not convert"):
        load_legacy_office(path)


def _installation(root: Path, components: tuple[str, ...], body: str) -> Path:
    """A LibreOffice laid out as its packages install it: program/soffice (a stand-in) and share/registry with the
    configuration of each component installed (writer.xcd, calc.xcd, impress.xcd)."""
    program, registry = root / "program", root / "share" / "registry"
    program.mkdir(parents=True)
    registry.mkdir(parents=True)
    for name in ("main", *components):
        (registry / f"{name}.xcd").write_text("<oor:data/>")
    return _fake_soffice(program, body)


def test_a_missing_component_is_named_instead_of_blaming_the_file(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 49 item 7: only Writer (and Calc) installed, as a Linux distribution packages them: a .ppt says Impress
    is missing, not "could not convert this file; it may be damaged"; the .doc still converts."""
    import docx

    made = tmp_path / "made.docx"
    document = docx.Document()
    document.add_paragraph("The 1998 memo about the river survey.")
    document.save(str(made))
    soffice = _installation(tmp_path / "lo", ("writer", "calc"),
                            f'while [ "$1" != "--outdir" ]; do shift; done\nmkdir -p "$2"\ncp "{made}" "$2/input.docx"\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "soffice").symlink_to(soffice)  # as /usr/bin/soffice links into the installation
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert legacy_office.installed_components(str(bin_dir / "soffice")) == ("Writer", "Calc")
    deck = tmp_path / "deck.ppt"
    deck.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504)
    with pytest.raises(LoadError) as caught:
        load_legacy_office(deck)
    assert str(caught.value) == (
        "This is an old PowerPoint presentation (.ppt), which is read through LibreOffice Impress, and the LibreOffice "
        "installed here has no Impress (it has: Writer, Calc). Install LibreOffice Impress (on Debian and Ubuntu the "
        "package libreoffice-impress), or open it in PowerPoint or LibreOffice Impress and save it as .pptx, then "
        "index it again.")
    from desktop_rag.engine.errors import error_text

    assert "没有 Impress" in error_text(caught.value, "zh")
    memo = tmp_path / "memo.doc"
    memo.write_bytes(deck.read_bytes())
    assert "river survey" in load_legacy_office(memo).sections[0].text


def test_an_unknown_layout_is_tried(tmp_path: Path) -> None:
    """Where the installation's registry cannot be found, nothing is claimed missing (the conversion is tried)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    assert legacy_office.installed_components(str(_fake_soffice(bin_dir, "exit 0\n"))) is None
