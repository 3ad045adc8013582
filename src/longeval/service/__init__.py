"""The HTTP service: write, evaluate and bench jobs in the background, with per-step server-sent events.

`create_app(settings)` builds the aiohttp application; `longeval serve` runs it.
"""

from longeval.service.app import create_app
from longeval.service.settings import ServiceSettings

__all__ = ["ServiceSettings", "create_app"]
