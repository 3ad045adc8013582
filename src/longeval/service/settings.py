"""The service's settings: where it listens, who may call it, what it bounds. Built by `longeval serve`."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

from longeval.llm.limits import Limits
from longeval.settings import EnvSettings


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach; any other name or address counts as beyond loopback."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ServiceSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data_dir: Path = Field(description="jobs, their run folders, events and input files live here, and only here")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    token: SecretStr | None = Field(default=None, description="bearer token required on every route but /healthz")
    max_running_jobs: int = Field(default=2, ge=1, description="jobs executing at once; the rest wait in the queue")
    max_pending_jobs: int = Field(default=32, ge=1, description="queued plus running jobs; more get 429")
    max_body_bytes: int = Field(default=1 << 20, ge=1024, description="largest request body; more get 413")
    limits: Limits = Field(default_factory=Limits, description="per-endpoint model limits, shared by all jobs")
    allowed_base_urls: list[str] = Field(
        default_factory=list, description="base URLs a request may name (the service's API key goes there)"
    )
    env: EnvSettings = Field(default_factory=EnvSettings, description="API keys and endpoints from the environment")
    response_cache: bool = Field(default=True, description="one SQLite response cache for all jobs")
    heartbeat_s: float = Field(default=15.0, gt=0, description="a comment line on idle event streams")

    @model_validator(mode="after")
    def _token_beyond_loopback(self) -> ServiceSettings:
        if not is_loopback(self.host) and self.token is None:
            raise ValueError(
                f"refusing to listen on {self.host!r} without a token: anyone who can reach it could run jobs. "
                "Set --token (or $LONGEVAL_TOKEN), or listen on 127.0.0.1"
            )
        return self

    @property
    def database_path(self) -> Path:
        return self.data_dir / "service.sqlite"

    @property
    def jobs_dir(self) -> Path:
        return self.data_dir / "jobs"

    @property
    def cache_path(self) -> Path:
        return self.data_dir / "cache.sqlite"

    def secrets(self) -> list[str]:
        """Values that must never appear in logs, events or results."""
        values = [self.env.openai_api_key, self.token.get_secret_value() if self.token else None]
        return [v for v in values if v]
