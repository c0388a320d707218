"""Real failures of the system a test can make happen: a full disk (/dev/full), and a file mode that holds even for
root (a command run without root's power to read any file)."""

from __future__ import annotations

import os
import shutil
import stat

import pytest

full_disk = pytest.mark.skipif(not (os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)),
                               reason="no /dev/full")


def without_root_powers() -> list[str]:
    """A prefix that runs a command without root's power to read any file (so a mode of 000 holds), or []."""
    if os.name != "posix":
        pytest.skip("POSIX file modes")
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root, and no setpriv to drop the capability to read any file")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
