"""Prompt templates: text files under `prompts/templates/`, one per purpose.

A template names its variables as `{{name}}`. Rendering is strict: a missing variable or a
variable passed but never used is an error, so a prompt and its caller cannot drift apart.
A template may hold a system part and a user part, marked by lines `=== system ===` and
`=== user ===`; without markers the whole file is the user message.
Each prompt has a stable hash (of its file text) recorded in traces and run provenance.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from longeval.llm.types import Message

_VAR = re.compile(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}")
_PART = re.compile(r"^=== (system|user) ===\s*$", re.M)


class PromptError(ValueError):
    pass


@dataclass(frozen=True)
class Prompt:
    name: str
    source: str

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()[:12]

    @property
    def variables(self) -> frozenset[str]:
        return frozenset(_VAR.findall(self.source))

    def _parts(self) -> list[tuple[str, str]]:
        marks = list(_PART.finditer(self.source))
        if not marks:
            return [("user", self.source.strip())]
        parts = []
        for i, mark in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(self.source)
            parts.append((mark.group(1), self.source[mark.end() : end].strip()))
        return parts

    def render_messages(self, **values: object) -> list[Message]:
        missing = self.variables - values.keys()
        unused = values.keys() - self.variables
        if missing or unused:
            raise PromptError(
                f"prompt {self.name!r}: missing variables {sorted(missing)}, unused variables {sorted(unused)}"
            )

        def fill(text: str) -> str:
            return _VAR.sub(lambda m: str(values[m.group(1)]), text)

        return [Message(role=role, content=fill(text)) for role, text in self._parts()]  # type: ignore[typeddict-item]

    def render(self, **values: object) -> str:
        """The rendered user text (for single-part prompts)."""
        return "\n\n".join(m["content"] for m in self.render_messages(**values))


def available_prompts() -> list[str]:
    root = resources.files("longeval.prompts") / "templates"
    return sorted(p.name.removesuffix(".txt") for p in root.iterdir() if p.name.endswith(".txt"))


@cache
def load_prompt(name: str) -> Prompt:
    path = resources.files("longeval.prompts") / "templates" / f"{name}.txt"
    if not path.is_file():
        known = available_prompts()
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; known prompts: {', '.join(known)}"
        raise PromptError(f"unknown prompt {name!r}{hint}")
    return Prompt(name=name, source=path.read_text(encoding="utf-8"))


def prompt_hashes() -> dict[str, str]:
    """Every shipped prompt's hash, for a run's provenance."""
    return {name: load_prompt(name).hash for name in available_prompts()}
