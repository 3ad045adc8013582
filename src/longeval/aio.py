"""Small asyncio helpers shared by the stages."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def gather_or_cancel(coroutines: list[Coroutine[Any, Any, T]]) -> list[T]:
    """Run all concurrently; the first error cancels the rest and is raised as it is (no exception group).

    Work that finished before the error keeps its side effects (results already appended, plans cached).
    """
    tasks = [asyncio.ensure_future(c) for c in coroutines]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
