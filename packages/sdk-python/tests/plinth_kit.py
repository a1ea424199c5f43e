"""Test kit: a real Plinth server (the repository's Node launcher), a REST client signed in as the
platform admin, a console socket, and exhibit programs run as separate Python processes."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Callable

import websockets

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parents[1]
LAUNCHER = ROOT / "apps/server/src/test/server-launcher.ts"
PROGRAM = PACKAGE / "tests/exhibit_program.py"


class LineReader:
    """Collects a process's stdout lines on a thread, so a test can wait for one."""

    def __init__(self, stream: Any) -> None:
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()
        self.ended = False

    def _read(self, stream: Any) -> None:
        for raw in stream:
            with self._changed:
                self.lines.append(raw.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self.ended = True
            self._changed.notify_all()

    def wait_for(self, match: Callable[[str], bool], *, start: int = 0, timeout: float = 15.0, what: str = "a line") -> str:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for line in self.lines[start:]:
                    if match(line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or self.ended:
                    raise AssertionError(f"no {what} within {timeout} s; printed:\n" + "\n".join(self.lines))
                self._changed.wait(left)


class PlinthServer:
    """The real server in its own process, on a fresh database (apps/server/src/test/server-launcher.ts)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", "--import", "tsx", str(LAUNCHER)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        self.output = LineReader(self.process.stdout)
        first = self.output.wait_for(lambda line: line.startswith("{"), timeout=120, what="server start")
        info = json.loads(first)
        self.url: str = info["url"]
        self.email: str = info["email"]
        self.password: str = info["password"]

    def _command(self, command: str, answer: str) -> None:
        start = len(self.output.lines)
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        self.output.wait_for(lambda line: line == answer, start=start, timeout=120, what=answer)

    def stop_server(self) -> None:
        """Stops the server process (the database stays)."""
        self._command("stop", "stopped")

    def start_server(self) -> None:
        """Starts it again on the same port."""
        self._command("start", "started")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Api:
    """/api/v1 as a signed-in user (one cookie jar)."""

    def __init__(self, base: str, email: str, password: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        status, body = self.call("POST", "/auth/user/login", {"email": email, "password": password})
        assert status == 200, body

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body if body is not None else {}).encode() if method in ("POST", "PUT") else None
        request = urllib.request.Request(self.base + "/api/v1" + path, data=data, method=method, headers={"content-type": "application/json"} if data else {})
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.call(method, path, body)
        assert status == 200, f"{method} {path} answered {status}: {answer}"
        return answer

    def new_exhibit(self) -> dict[str, str]:
        """An organization, a site and an exhibit with one token."""
        suffix = os.urandom(4).hex()
        org = self.ok("POST", "/org-management/organization", {"name": f"Py Org {suffix}"})
        site = self.ok("POST", "/org-management/site", {"name": f"Py Site {suffix}", "organizationId": org["id"]})
        exhibit = self.ok("POST", "/exhibit-management/exhibit", {"name": f"Py Exhibit {suffix}", "siteId": site["id"]})
        token = self.ok("POST", "/auth/exhibit", {"name": "pytest", "exhibitId": exhibit["id"]})
        return {"id": exhibit["id"], "token": token["token"], "name": exhibit["name"], "siteId": site["id"]}

    def upload(self, exhibit: dict[str, str], files: dict[str, bytes]) -> Any:
        """POST /content/files/upload: the files in the multipart field ``file`` (as the console sends them)."""
        boundary = "----plinth" + os.urandom(8).hex()
        body = b"".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + content + b"\r\n"
            for name, content in files.items()
        ) + f"--{boundary}--\r\n".encode()
        query = urllib.parse.urlencode({"exhibitId": exhibit["id"], "siteId": exhibit["siteId"]})
        request = urllib.request.Request(
            f"{self.base}/api/v1/content/files/upload?{query}", data=body, method="POST",
            headers={"content-type": f"multipart/form-data; boundary={boundary}"},
        )
        with self.opener.open(request, timeout=60) as response:
            assert response.status == 200
            return json.loads(response.read())

    def delete_file(self, exhibit: dict[str, str], file_name: str) -> Any:
        """DELETE /content/files/: one of the exhibit's files."""
        query = urllib.parse.urlencode({"siteId": exhibit["siteId"], "exhibitId": exhibit["id"], "fileName": file_name}, quote_via=urllib.parse.quote)
        return self.ok("DELETE", f"/content/files/?{query}")

    def manifest_of(self, exhibit_id: str) -> Any:
        return self.ok("GET", f"/exhibit-management/exhibit/{exhibit_id}/manifest")


class ExhibitProgram:
    """tests/exhibit_program.py running as its own process against the server."""

    def __init__(self, server_url: str, exhibit: dict[str, str], manifest: Any, token: str | None = None, content_dir: str | None = None) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": str(PACKAGE / "src"),
            "PLINTH_URL": server_url,
            "EXHIBIT_ID": exhibit["id"],
            "EXHIBIT_TOKEN": token or exhibit["token"],
            "EXHIBIT_MANIFEST": json.dumps(manifest),
            **({"EXHIBIT_CONTENT_DIR": content_dir} if content_dir else {}),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-u", str(PROGRAM)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.output = LineReader(self.process.stdout)

    @property
    def lines(self) -> list[str]:
        return self.output.lines

    def wait_for(self, line: str, *, start: int = 0, timeout: float = 15.0, prefix: bool = False) -> str:
        match = (lambda l: l.startswith(line)) if prefix else (lambda l: l == line)
        try:
            return self.output.wait_for(match, start=start, timeout=timeout, what=repr(line))
        except AssertionError as error:
            raise AssertionError(f"{error}\nstderr:\n{self.stderr()}") from None

    def stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return "(running)"
        return self.process.stderr.read()

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class ConsoleSocket:
    """A console's /ws socket (signed in by cookie) subscribed to one exhibit, in a thread."""

    def __init__(self, server_url: str, cookie: str, exhibit_id: str) -> None:
        self.messages: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._run(server_url, cookie, exhibit_id),), daemon=True)
        self._thread.start()
        assert self._ready.wait(15), "the console socket did not subscribe"

    async def _run(self, server_url: str, cookie: str, exhibit_id: str) -> None:
        headers = {"cookie": cookie}
        major = int(websockets.__version__.split(".")[0])
        options = {"additional_headers": headers} if major >= 14 else {"extra_headers": headers}
        self._stop = self._loop.create_future()
        async with websockets.connect("ws" + server_url[4:] + "/ws", **options) as socket:  # type: ignore[arg-type]
            await socket.send(json.dumps({"type": "subscribe", "exhibitIds": [exhibit_id]}))
            reader = asyncio.ensure_future(self._read(socket))
            await self._stop
            reader.cancel()

    async def _read(self, socket: Any) -> None:
        async for raw in socket:
            message = json.loads(raw)
            if message.get("type") == "subscribed":
                self._ready.set()
            self.messages.put((time.monotonic(), message))

    def wait_for(self, match: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no matching console message")
            try:
                at, message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if match(message):
                return at, message

    def close(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set_result, None)
        self._thread.join(10)


def eventually(check: Callable[[], Any], timeout: float = 10.0, interval: float = 0.1) -> Any:
    """Retries ``check`` (an assertion) until it passes or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(interval)
