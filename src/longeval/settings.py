"""The one place that reads the environment, and the TOML config file loader.

Configuration flows one way: defaults < config file < environment (endpoints and secrets only) <
command-line flags or request body.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel


class EnvSettings(BaseModel):
    openai_api_key: str | None = None
    openai_base_url: str | None = None
    service_token: str | None = None

    @classmethod
    def from_env(cls) -> EnvSettings:
        return cls(
            openai_api_key=os.environ.get("OPENAI_API_KEY") or None,
            openai_base_url=os.environ.get("OPENAI_BASE_URL") or None,
            service_token=os.environ.get("LONGEVAL_TOKEN") or None,
        )


class ConfigError(ValueError):
    pass


def load_config_file(path: Path | None) -> dict[str, Any]:
    """Read a TOML config file; a missing file or bad TOML names the file."""
    if path is None:
        return {}
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"--config: {path} does not exist")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"--config: {path} is not valid TOML: {exc}") from exc


def merge_config(*layers: dict[str, Any]) -> dict[str, Any]:
    """Later layers win; None values (an unset flag) do not override."""
    merged: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            if value is None:
                continue
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = merge_config(merged[key], value)
            else:
                merged[key] = value
    return merged
