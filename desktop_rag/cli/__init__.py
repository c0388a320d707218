"""The command line: `main` (argument parsing), the command modules, terminal-safe output.

Imports only the engine surface (`desktop_rag.engine`) and `desktop_rag.config`.
"""
