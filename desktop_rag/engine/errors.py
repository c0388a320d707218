"""Errors whose messages a person can read and act on."""

from __future__ import annotations


class DesktopRagError(Exception):
    """Base class: the message is meant for the user."""


class LoadError(DesktopRagError):
    """A file could not be read; the message says why (stored on the file)."""


class ModelMismatchError(DesktopRagError):
    """The index was built with other embedding/chunking settings than those in use."""


class UsageError(DesktopRagError):
    """Bad input from the user (a path that does not exist, a bad option)."""
