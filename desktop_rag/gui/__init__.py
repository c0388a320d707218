"""The PySide6 desktop app (imports the engine facade; never imported by the engine)."""
