"""A real exhibit program for the integration and end-to-end tests: a separate Python process
using the thread API of the plinth package (``exhibit.start()``).

    PLINTH_URL=... EXHIBIT_ID=... EXHIBIT_TOKEN=... EXHIBIT_MANIFEST='{"statuses": [...]}' python3 exhibit_program.py

With EXHIBIT_CONTENT_DIR it mirrors the exhibit's files there (``content_dir``), prints
``files <json {added, updated, removed}>`` for each change, and after a setting whose value is text
``on disk <id> <size of the file it names, or -1>`` (what a FileSelection value finds on delivery).

Prints one line per thing it receives (``ready``, ``control <id> [item]``, ``setting <id> <json>``,
``list <id> <json names>``, ``opMode <On|Off>``, ``connected``, ``disconnected <code>``,
``error <message>``, ``failed <ErrorClass> <message>``) and reads one command per line on stdin:
``status <id> <json>``, ``log <level> <text>``, ``event <name> <json>``, ``opmode <On|Off>``,
``manifest <json>`` (answers ``manifest ok`` or ``manifest error <status> <message>``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

from plinth import Exhibit, PlinthError


def say(line: str) -> None:
    print(line, flush=True)


def main() -> int:
    exhibit = Exhibit(
        os.environ["EXHIBIT_ID"],
        os.environ["EXHIBIT_TOKEN"],
        json.loads(os.environ.get("EXHIBIT_MANIFEST", "{}")),
        url=os.environ["PLINTH_URL"],
        reconnect_min=0.2,
        reconnect_max=1.0,
        content_dir=os.environ.get("EXHIBIT_CONTENT_DIR"),
    )
    exhibit.on_control()(lambda c: say(f"control {c.id}{' ' + c.item_id if c.item_id else ''}"))

    @exhibit.on_setting()
    def on_setting(change) -> None:  # type: ignore[no-untyped-def]
        say(f"setting {change.id} {json.dumps(change.value)}")
        if exhibit.content_dir is not None and isinstance(change.value, str) and change.value:
            file = Path(exhibit.content_dir, change.value)
            say(f"on disk {change.id} {file.stat().st_size if file.is_file() else -1}")

    exhibit.on_files()(lambda f: say(f"files {json.dumps(dataclasses.asdict(f))}"))
    exhibit.on_setting_list()(lambda l: say(f"list {l.id} {json.dumps([i.list_name for i in l.items])}"))
    exhibit.on_op_mode()(lambda m: say(f"opMode {m.value}"))
    exhibit.on_connected()(lambda _: say("connected"))
    exhibit.on_disconnected()(lambda d: say(f"disconnected {d.code}"))
    exhibit.on_error(lambda e: say(f"error {e.error}"))
    try:
        exhibit.start(timeout=60)
    except PlinthError as error:
        say(f"failed {type(error).__name__} {error}")
        return 1
    say("ready")
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "status":
            status_id, _, value = rest.partition(" ")
            exhibit.set_status(status_id, json.loads(value))
        elif command == "log":
            level, _, text = rest.partition(" ")
            getattr(exhibit.logger, level)(text)
        elif command == "event":
            name, _, data = rest.partition(" ")
            exhibit.event(name, json.loads(data))
        elif command == "opmode":
            exhibit.set_op_mode(rest)  # type: ignore[arg-type]
        elif command == "manifest":
            try:
                exhibit.set_manifest_blocking(json.loads(rest))
                say("manifest ok")
            except PlinthError as error:
                say(f"manifest error {error.status} {error}")
                continue
        else:
            say(f"unknown command {line.strip()}")
            continue
        say(f"{command} sent")
    exhibit.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
