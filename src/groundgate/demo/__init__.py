"""The bundled demo workspace (data files shipped inside the package)."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def demo_file(name: str) -> Traversable:
    """A file of the bundled demo workspace."""
    return files(__name__).joinpath(name)
