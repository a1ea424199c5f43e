"""A small local file server speaking the exhibit's download call (docs/protocols/exhibit-sdk.md,
section 4) for the tests that exercise the content folder's sync without a Plinth server."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from plinth.content_sync import ContentSync


def sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


class FileServer:
    """Serves ``files`` (name -> bytes) at /api/v1/content/files/ to the exhibit's Basic credentials
    (``status`` set: answers it to every request); ``requests`` lists the names asked for."""

    def __init__(self, exhibit_id: str, token: str) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        self.status: int | None = None
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                url = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(url.query)
                name = query.get("fileName", [""])[0]
                owner.requests.append(name)
                expected = "Basic " + base64.b64encode(f"{exhibit_id}:{token}".encode()).decode()
                if owner.status is not None:
                    return self._answer(owner.status, b"{}")
                if url.path != "/api/v1/content/files/" or self.headers.get("authorization") != expected:
                    return self._answer(401, b"{}")
                if query.get("exhibitId") != [exhibit_id] or name not in owner.files:
                    return self._answer(404, b"{}")
                self._answer(200, owner.files[name])

            def _answer(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def listing(self, *names: str, **overrides: dict[str, Any]) -> list[dict[str, Any]]:
        """``files.changed``'s list for the named files as served now."""
        return [
            {"name": n, "size": len(self.files[n]), "sha256": sha256(self.files[n]), "updatedAt": "2026-11-23T10:00:00.000Z", "organizational": False, **overrides.get(n, {})}
            for n in names
        ]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


async def until(check: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def settled(sync: ContentSync) -> None:
    """Until no pass runs (the pass a test started, and any it queued)."""
    await until(lambda: sync._running is None, "the sync pass to end")
