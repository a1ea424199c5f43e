"""The smallest exhibit: connect, report a status, log, and stop on Ctrl+C.

    PLINTH_URL=http://localhost:3000 EXHIBIT_ID=... EXHIBIT_TOKEN=... python3 examples/minimal.py
"""

import asyncio
import os
from pathlib import Path

from plinth import Exhibit

MANIFEST = Path(__file__).with_name("manifest.json")


async def main() -> None:
    exhibit = Exhibit(os.environ["EXHIBIT_ID"], os.environ["EXHIBIT_TOKEN"], MANIFEST, url=os.environ.get("PLINTH_URL", "http://localhost:3000"))
    exhibit.on_disconnected()(lambda event: print(f"disconnected ({event.code}); reconnecting…"))
    exhibit.on_connected()(lambda _: print("connected again, settings re-synced"))
    await exhibit.connect()
    print("ready; settings:", exhibit.get_settings())
    await exhibit.set_status("ip_address", "127.0.0.1")
    exhibit.logger.info("minimal exhibit started")
    try:
        await exhibit.wait_closed()  # runs until Ctrl+C
    finally:
        await exhibit.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
