"""Measure the embedded model's speed and how sampling settings affect looping.

    python benchmarks/local_sampling.py [--tokens 300] [--penalties 1.0,1.1,1.2,1.3,1.5]

For each repeat penalty it writes the same prompts with the same seeds and reports tokens/second,
the share of distinct word 3-grams (1.0 = no repeated phrase), and how many sentences occur 3+ times.
Higher distinct-3 with no repeated sentences is better; the default in `LocalSampling` is the best.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import time

from longeval.llm.local import LocalBackend, LocalSampling
from longeval.llm.types import Message

PROMPTS = [
    "Write the introduction of an article about how rivers shape valleys. Write at least 200 words.",
    "Write a blog post section about learning to bake bread at home. Write at least 200 words.",
    "Write the method section of a paper about caching in web servers. Write at least 200 words.",
]


def distinct_3(text: str) -> float:
    words = text.lower().split()
    grams = list(zip(words, words[1:], words[2:], strict=False))
    return len(set(grams)) / len(grams) if grams else 0.0


def repeated_sentences(text: str) -> int:
    sentences = [s.strip().lower() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    return sum(1 for s in set(sentences) if sentences.count(s) >= 3)


async def measure(penalty: float, tokens: int, seeds: list[int]) -> dict[str, float]:
    backend = LocalBackend(sampling=LocalSampling(repeat_penalty=penalty))
    rates, distinct, repeats = [], [], 0
    for prompt in PROMPTS:
        for seed in seeds:
            started = time.perf_counter()
            completion = await backend.complete(
                [Message(role="user", content=prompt)],
                purpose="bench.sampling",
                max_tokens=tokens,
                temperature=0.7,
                seed=seed,
                json_schema=None,
            )
            rates.append(completion.completion_tokens / (time.perf_counter() - started))
            distinct.append(distinct_3(completion.text))
            repeats += repeated_sentences(completion.text)
    return {"tok_s": statistics.median(rates), "distinct3": statistics.mean(distinct), "repeated": repeats}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=300)
    parser.add_argument("--penalties", default="1.0,1.1,1.2,1.3,1.5")
    parser.add_argument("--seeds", default="0,1")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    print(f"{'repeat_penalty':>14} {'tok/s (median)':>15} {'distinct-3':>11} {'sentences x3+':>14}")
    for penalty in (float(p) for p in args.penalties.split(",")):
        row = await measure(penalty, args.tokens, seeds)
        print(f"{penalty:>14.2f} {row['tok_s']:>15.1f} {row['distinct3']:>11.3f} {row['repeated']:>14.0f}")


if __name__ == "__main__":
    asyncio.run(main())
