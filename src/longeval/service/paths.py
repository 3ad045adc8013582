"""Paths a request may name: relative to the data dir, never outside it. Job ids: 32 hex digits."""

from __future__ import annotations

import re
import uuid
from pathlib import Path, PurePosixPath, PureWindowsPath

JOB_ID_PATTERN = r"[0-9a-f]{32}"
_JOB_ID = re.compile(rf"^{JOB_ID_PATTERN}$")


class UnsafePathError(ValueError):
    """A requested path that is absolute, climbs with `..`, or resolves outside the data dir."""


def new_job_id() -> str:
    return uuid.uuid4().hex


def check_job_id(value: str) -> str:
    if not _JOB_ID.match(value):
        raise ValueError(f"{value!r} is not a job id (32 lowercase hex digits)")
    return value


def check_relative(value: str) -> str:
    """The syntax check, done at validation: a plain relative path, no `..`, no drive, no NUL."""
    if not value or not value.strip():
        raise UnsafePathError("empty path")
    if "\x00" in value:
        raise UnsafePathError("path contains a NUL byte")
    posix, windows = PurePosixPath(value), PureWindowsPath(value)
    if posix.is_absolute() or windows.is_absolute() or windows.drive or value.startswith(("/", "\\", "~")):
        raise UnsafePathError(f"{value!r} is absolute; give a path relative to the service's data dir")
    if ".." in posix.parts or ".." in windows.parts:
        raise UnsafePathError(f"{value!r} climbs out with '..'; give a path inside the service's data dir")
    return value


def resolve_inside(data_dir: Path, value: str) -> Path:
    """`value` under `data_dir`, symlinks resolved, refused when it lands outside."""
    check_relative(value)
    root = data_dir.resolve()
    path = (root / value).resolve()
    if not path.is_relative_to(root):
        raise UnsafePathError(f"{value!r} resolves outside the service's data dir")
    return path
