"""Archives edited as someone else's could be: a copy whose collection.json a test changed, its manifest's hash and
size made to match (so the import's row checks are what refuses it)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path


def rewrite_collection(archive: Path, target: Path, change) -> None:
    """Copy `archive` with its collection.json changed by `change` (manifest hashes fixed up)."""
    with zipfile.ZipFile(archive) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    collection = json.loads(members["collection.json"])
    change(collection)
    members["collection.json"] = json.dumps(collection).encode()
    manifest = json.loads(members["manifest.json"])
    manifest["members"]["collection.json"] = {"size": len(members["collection.json"]),
                                              "sha256": hashlib.sha256(members["collection.json"]).hexdigest()}
    members["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(target, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
