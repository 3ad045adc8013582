"""How much the shared per-endpoint limits and the response cache buy, measured in one run.

    python benchmarks/endpoint_concurrency.py [--calls 200] [--latency 0.05]

A fake OpenAI-compatible server on 127.0.0.1 answers every call after `--latency` seconds (a stand-in
for a model server). The same calls go through the real client at several concurrency caps; the
sequential cap (1) is the baseline, so the printed speed-ups are ratios measured side by side on
this machine. The last row replays the calls against the run's response cache.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fake server lives with the tests

from tests.fakes.openai_server import FakeOpenAIServer, running_fake_server  # noqa: E402

from longeval.llm.hub import ModelHub  # noqa: E402
from longeval.llm.limits import Limits  # noqa: E402
from longeval.llm.types import Message  # noqa: E402
from longeval.logging_setup import configure_logging  # noqa: E402


async def timed_calls(hub: ModelHub, url: str, calls: int) -> float:
    model = hub.get("openai:fake", base_url=url)
    started = time.perf_counter()
    await asyncio.gather(
        *(
            model.complete([Message(role="user", content=f"judge item {i}")], purpose="bench.judge")
            for i in range(calls)
        )
    )
    return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--caps", default="1,4,16,64")
    args = parser.parse_args()
    configure_logging(level="warning")
    async with running_fake_server(FakeOpenAIServer(delay_s=args.latency)) as server:
        print(f"{args.calls} calls, server latency {args.latency * 1000:.0f} ms")
        print(f"{'max_concurrency':>16} {'wall s':>8} {'speed-up':>9} {'server max in flight':>21}")
        baseline = None
        for cap in (int(c) for c in args.caps.split(",")):
            server.max_in_flight = 0
            async with ModelHub(limits=Limits(max_concurrency=cap)) as hub:
                wall = await timed_calls(hub, server.url, args.calls)
            baseline = baseline or wall
            print(f"{cap:>16} {wall:>8.2f} {baseline / wall:>8.1f}x {server.max_in_flight:>21}")
        with tempfile.TemporaryDirectory() as folder:
            cache = Path(folder) / "cache.sqlite"
            async with ModelHub(limits=Limits(max_concurrency=16), cache_path=cache) as hub:
                await timed_calls(hub, server.url, args.calls)
            before = len(server.requests)
            async with ModelHub(limits=Limits(max_concurrency=16), cache_path=cache) as hub:
                wall = await timed_calls(hub, server.url, args.calls)
            print(
                f"{'cached rerun':>16} {wall:>8.2f} {baseline / wall:>8.1f}x   requests: {len(server.requests) - before}"
            )


if __name__ == "__main__":
    asyncio.run(main())
