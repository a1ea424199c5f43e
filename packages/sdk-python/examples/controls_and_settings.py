"""An exhibit (asyncio) that reacts to controls, settings, setting lists and op mode, and counts visitors.

    PLINTH_URL=http://localhost:3000 EXHIBIT_ID=... EXHIBIT_TOKEN=... python3 examples/controls_and_settings.py

It prints what it receives, one line each: ``control <id> [<button>]``, ``setting <id> = <value>``
(values are native: ``True``/``False`` for toggles, ``int`` for integers), ``list <id>: <names>``,
``op mode <On|Off>``. With ``CONTENT_DIR=<folder>`` it also keeps the exhibit's files (its Files
tab) in that folder, prints ``files added [...] updated [...] removed [...]``, and the ``video``
setting (a FileSelection) prints the size of the file it names, which is always there by then.
"""

from __future__ import annotations

import asyncio
import os
import socket
from datetime import datetime, timezone
from pathlib import Path

from plinth import Control, Exhibit, FilesChange, OpModeChange, PlinthError, SettingChange, SettingListChange

MANIFEST = Path(__file__).with_name("manifest.json")

exhibit = Exhibit(
    os.environ["EXHIBIT_ID"],
    os.environ["EXHIBIT_TOKEN"],
    MANIFEST,
    url=os.environ.get("PLINTH_URL", "http://localhost:3000"),
    content_dir=os.environ.get("CONTENT_DIR") or None,
)
visitors = 0
volume = 5


def say(line: str) -> None:
    print(line, flush=True)


@exhibit.on_control()
async def on_control(control: Control) -> None:
    global volume
    say(f"control {control.id}" + (f" {control.item_id}" if control.item_id else ""))
    if control.id == "volume":
        volume = max(0, min(10, volume + (1 if control.item_id == "up" else -1)))
    if control.id == "reload":
        exhibit.logger.info("reloading content")
    await exhibit.event("control", control.id)


@exhibit.on_setting()
def on_setting(change: SettingChange) -> None:
    say(f"setting {change.id} = {change.value!r}")
    if change.id == "video" and change.value and exhibit.content_dir is not None:
        video = exhibit.content_dir / str(change.value)
        say(f"video {video} ({video.stat().st_size if video.is_file() else 'not a Plinth file'} bytes)")


@exhibit.on_files()
def on_files(change: FilesChange) -> None:
    say(f"files added {change.added} updated {change.updated} removed {change.removed}")


@exhibit.on_setting_list()
def on_list(change: SettingListChange) -> None:
    say(f"list {change.id}: {', '.join(item.list_name for item in change.items)}")


@exhibit.on_op_mode()
def on_op_mode(change: OpModeChange) -> None:
    say(f"op mode {change.value}")


@exhibit.on_error
def on_error(event) -> None:  # type: ignore[no-untyped-def]
    say(f"exhibit error: {event.error}")


async def main() -> None:
    global visitors
    try:
        await exhibit.connect()
    except PlinthError as error:
        say(f"could not connect: {error}")
        raise SystemExit(1) from None
    say(f"ready in op mode {exhibit.op_mode}")
    await exhibit.set_status("ip_address", socket.gethostbyname(socket.gethostname()))
    await exhibit.set_status("count", visitors)
    # A visitor every few seconds while the exhibit is On.
    while True:
        await asyncio.sleep(5)
        if exhibit.op_mode != "On":
            continue
        visitors += 1
        await exhibit.set_status("count", visitors)
        await exhibit.set_status("last_interaction", datetime.now(timezone.utc).isoformat())
        await exhibit.event("visit", visitors)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
