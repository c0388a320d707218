"""LibreOffice run so that converting a file fetches nothing: a private profile whose settings block remote content,
and on Linux no network at all for the conversion.

A .doc may be flat ODT or HTML under another name, with pictures, frames, style sheets and linked sections on any
host; LibreOffice fetches them while it loads the file (a read receipt for a stranger's e-mail attachment, a probe
of the local network). Two layers stop that:

- The profile (`write_profile`, in the conversion's own temporary folder) says: links from documents are blocked
  (`BlockUntrustedRefererLinks`: linked pictures), links are never updated (Writer and Calc), macros never run,
  and every internet protocol goes through a proxy at 0.0.0.0:1, where nothing can be reached (style sheets and
  frames, which the first setting does not cover). The proxy variables of the environment are not passed on.
- On Linux the converter runs in a new network namespace (`network_off`: `unshare -rn`, a user namespace where
  unprivileged ones are allowed, else `unshare -n` for root), which has no interface but a loopback that is down:
  no connection can be made at all. Where neither is permitted (some distributions restrict user namespaces;
  containers without the capability) the profile alone holds; on macOS and Windows too.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

_SCRIPTING = "/org.openoffice.Office.Common/Security/Scripting"
_INET = "/org.openoffice.Inet/Settings"
NOWHERE = ("0.0.0.0", "1")  # a proxy no connection reaches
SETTINGS: tuple[tuple[str, str, str], ...] = (
    (_SCRIPTING, "BlockUntrustedRefererLinks", "true"),  # pictures and other objects linked from a document
    (_SCRIPTING, "MacroSecurityLevel", "3"),
    (_SCRIPTING, "DisableMacrosExecution", "true"),
    ("/org.openoffice.Office.Writer/Content/Update", "Link", "0"),  # never update links
    ("/org.openoffice.Office.Calc/Content/Update", "Link", "1"),  # never update links
    (_INET, "ooInetProxyType", "1"),  # manual: the proxies below, for every host
    (_INET, "ooInetNoProxy", ""),
    *((_INET, f"ooInet{scheme}Proxy{field}", value) for scheme in ("HTTP", "HTTPS", "FTP")
      for field, value in zip(("Name", "Port"), NOWHERE)),
)
_PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy"})


def write_profile(folder: Path) -> str:
    """Create a LibreOffice user profile in `folder` with SETTINGS; its URI for `-env:UserInstallation`."""
    user = folder / "user"
    user.mkdir(parents=True)
    items = "".join(f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse"><value>{escape(value)}</value>'
                    "</prop></item>\n" for path, name, value in SETTINGS)
    (user / "registrymodifications.xcu").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"{items}</oor:items>\n", encoding="utf-8")
    return folder.as_uri()


def environment() -> dict[str, str]:
    """This process's environment without proxy settings (the profile's proxy is the only one)."""
    return {k: v for k, v in os.environ.items() if k.lower() not in _PROXY_VARIABLES}


@functools.cache
def network_off() -> tuple[str, ...]:
    """The command prefix that runs a program without network on this computer (Linux: a new network namespace),
    () where none is permitted. Tried once per process."""
    unshare = shutil.which("unshare") if sys.platform.startswith("linux") else None
    if unshare is None:
        return ()
    tries = [(unshare, "-rn")] + ([(unshare, "-n")] if hasattr(os, "geteuid") and os.geteuid() == 0 else [])
    for prefix in tries:
        try:
            done = subprocess.run([*prefix, "true"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=10)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return prefix
    return ()
