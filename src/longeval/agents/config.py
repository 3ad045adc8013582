"""The writer's configuration: one pydantic model, shared by the command, bench and the service."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from longeval.agents.planners import PLANNERS
from longeval.registry import UnknownNameError


class WriterConfig(BaseModel):
    """How a document is written. Frozen (hashable), so a compiled graph can be kept per configuration."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    planner: str = Field(default="given", description="a registered planner: given, outline, none, ...")
    length_control: bool = Field(default=False, description="closed loop: continue short sections, tighten long ones")
    tolerance: float = Field(default=0.2, gt=0, lt=1, description="length band: required words x (1 +/- tolerance)")
    length_rounds: int = Field(default=2, ge=1, le=5, description="at most this many extra calls per section")
    max_section_tokens: int = Field(default=4096, ge=16, description="cap on max_tokens of one section call")
    max_direct_tokens: int = Field(default=16384, ge=16, description="cap on max_tokens of the direct call")
    length_scale: float = Field(default=1.0, gt=0, le=10, description="scales every required length (quick runs)")
    default_section_words: int = Field(default=400, ge=1, description="for a section that states no length")
    outline_sections: int = Field(default=0, ge=0, le=40, description="outline planner: sections (0: the record's)")
    judge_max_tokens: int = Field(default=64, ge=8)
    seed: int = 0
    temperature: float = Field(default=0.0, ge=0, le=2)

    @field_validator("planner")
    @classmethod
    def _known_planner(cls, name: str) -> str:
        try:
            PLANNERS.get(name)
        except UnknownNameError as exc:
            raise ValueError(str(exc)) from None
        return name

    @property
    def paradigm(self) -> Literal["plan", "direct"]:
        """Derived from the planner (`none` writes directly), never set on its own."""
        return PLANNERS.get(self.planner).paradigm

    def required_words(self, words: int) -> int:
        """A section's required words after scaling; a section without a length gets the default."""
        return max(1, round((words or self.default_section_words) * self.length_scale))

    def section_max_tokens(self, words: int) -> int:
        return max_tokens_for(words, self.max_section_tokens)

    def direct_max_tokens(self, words: int) -> int:
        return max_tokens_for(words, self.max_direct_tokens)


TOKENS_PER_WORD = 1.5  # English prose runs about 1.3 tokens a word; the rest is headroom to finish a sentence
TOKEN_MARGIN = 64


def max_tokens_for(words: int, cap: int) -> int:
    return min(cap, int(words * TOKENS_PER_WORD) + TOKEN_MARGIN)
