"""longeval: write long documents with a plan-based agent and measure how well models write them."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("longeval")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
