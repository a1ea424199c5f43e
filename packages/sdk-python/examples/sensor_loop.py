"""A script with its own loop (a sensor read every second), using the thread API: the exhibit
connects in a background thread; the loop polls the events and sets statuses from its own thread.
The same shape fits Tk (call ``exhibit.dispatch()`` from ``root.after``) or TouchDesigner (from a
frame callback).

    PLINTH_URL=http://localhost:3000 EXHIBIT_ID=... EXHIBIT_TOKEN=... python3 examples/sensor_loop.py
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from plinth import Control, Exhibit, SettingChange

exhibit = Exhibit(
    os.environ["EXHIBIT_ID"],
    os.environ["EXHIBIT_TOKEN"],
    Path(__file__).with_name("manifest.json"),
    url=os.environ.get("PLINTH_URL", "http://localhost:3000"),
)


@exhibit.on_control()
def on_control(control: Control) -> None:
    print("control", control.id, control.item_id or "", flush=True)


@exhibit.on_setting()
def on_setting(change: SettingChange) -> None:
    print(f"setting {change.id} = {change.value!r}", flush=True)


def main() -> None:
    exhibit.start(deliver="queue")  # returns once connected; raises AuthenticationError or ManifestError
    count = 0
    try:
        while True:
            exhibit.dispatch()  # runs the callbacks above on this thread
            if random.random() < 0.3:  # someone walked past the sensor
                count += 1
                exhibit.set_status("count", count)
                exhibit.event("visit", count)
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        exhibit.stop()


if __name__ == "__main__":
    main()
