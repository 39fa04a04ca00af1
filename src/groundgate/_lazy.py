"""Lazy package faces (PEP 562): a package lists its public names and the module each lives in, and
a name is imported on first use. `groundgate --help` and `groundgate check` must not pay for the
store, the service or plotly because a package face names them (docs/benchmarks.md, CLI start-up)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["load", "names"]


def load(package: str, homes: Mapping[str, str], name: str) -> Any:
    """`name` of `package`, imported from its home module and kept on the package, so later lookups
    do not come back here; `AttributeError` for a name the package does not have."""
    home = homes.get(name)
    if home is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    setattr(sys.modules[package], name, value)
    return value


def names(loaded: Iterable[str], public: Iterable[str]) -> list[str]:
    """What `dir(package)` lists: what is loaded and every public name, loaded or not."""
    return sorted({*loaded, *public})
