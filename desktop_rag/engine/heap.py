"""The C heap: hand freed pages back to the system (glibc keeps them otherwise)."""

from __future__ import annotations

_malloc_trim = None


def release_freed_memory() -> None:
    """glibc's malloc_trim: after an embedding round (the next round's buffers would otherwise stack on a
    fragmented heap) or a model load (the model file's bytes, parsed and dropped). A few ms; a no-op off glibc."""
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = _find_malloc_trim()
    if _malloc_trim is not False:
        _malloc_trim(0)


def _find_malloc_trim():
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # musl and other C libraries have no malloc_trim
        return False
