"""`desktop-rag mcp` as a child process written to as raw lines of bytes, for what the MCP SDK's own client cannot
send (a lone surrogate escape, a line that is no message, a huge line) and for a server on a library it cannot
write."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.support import REPO

HANDSHAKE = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "hostile", "version": "1"}}


class RawClient:
    """`desktop-rag mcp` as a child process, written to and read from as lines of bytes."""

    def __init__(self, data: Path) -> None:
        env = {**os.environ, "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64", "PYTHONPATH": str(REPO)}
        self.process = subprocess.Popen([sys.executable, "-m", "desktop_rag", "--data-dir", str(data), "mcp"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=env, cwd=str(REPO))
        self._pending = b""

    def send(self, line: str | bytes) -> None:
        """One line; a str is sent as written (a `\\ud800` in it stays the six characters of the escape)."""
        self.process.stdin.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        self.process.stdin.flush()

    def request(self, request_id: object, method: str, params: object) -> None:
        self.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}))

    def handshake(self, params: str = json.dumps(HANDSHAKE)) -> dict:
        self.send('{"jsonrpc": "2.0", "id": "hello", "method": "initialize", "params": ' + params + "}")
        answer = self.answer()
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        return answer

    def answer(self, timeout: float = 60) -> dict:
        """The next message the server writes (fails after `timeout` seconds: the client would still be waiting)."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            assert left > 0, "no answer: the client would wait forever"
            if select.select([self.process.stdout], [], [], left)[0]:
                piece = os.read(self.process.stdout.fileno(), 1 << 16)
                assert piece, f"the server ended: {self.process.stderr.read().decode(errors='replace')}"
                self._pending += piece
        line, self._pending = self._pending.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> tuple[int, str]:
        self.process.stdin.close()
        code = self.process.wait(timeout=30)
        return code, self.process.stderr.read().decode(errors="replace")
