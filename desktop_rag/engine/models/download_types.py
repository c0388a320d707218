"""What a model download reports: its errors, progress snapshots and the files of a listing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop_rag.engine.errors import DesktopRagError


class DownloadError(DesktopRagError):
    """A download failed; `kind` is one of: invalid, unreachable, not_found, gated, http, protocol,
    unsafe, too_large, disk_full, checksum, cancelled, io."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class DownloadCancelled(DownloadError):
    """The user cancelled; finished and partial files are kept for a later resume."""

    def __init__(self, repo_id: str) -> None:
        from desktop_rag.engine.messages import message

        super().__init__("cancelled", message("error.download_cancelled", repo_id=repo_id))
        self.code, self.values = "download_cancelled", {"repo_id": repo_id}


@dataclass(frozen=True)
class RemoteFile:
    """One file of the repo listing: its path, size and the checksum to verify."""

    path: str
    size: int
    sha256: str | None = None  # LFS files
    git_sha1: str | None = None  # the git blob id of a regular file


@dataclass(frozen=True)
class DownloadProgress:
    """A progress snapshot. phase: 'listing' | 'downloading' | 'verifying' | 'done'."""

    repo_id: str
    phase: str
    bytes_done: int = 0
    bytes_total: int = 0
    files_done: int = 0
    files_total: int = 0
    current_file: str = ""
    rate: float = 0.0  # bytes/s over this session
    eta_seconds: float | None = None

    @property
    def fraction(self) -> float:
        return self.bytes_done / self.bytes_total if self.bytes_total else 0.0


ProgressCallback = Callable[[DownloadProgress], None]
