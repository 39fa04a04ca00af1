"""The bundled demo: the payment-platform workspace (`workspace/`: documents, logs, metrics, orders)
and the checker examples (`check_examples.jsonl`), shipped inside the package as data files.

`_generate_workspace.py` regenerates the workspace's logs, metrics and orders, byte for byte, and
validates the whole workspace (a generator script, not imported at run time); its parts are
`_generate_base` (clock, metrics, log book), `_generate_orders` and `_generate_events`.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = [
    # bundled files
    "demo_file",
]


def demo_file(name: str) -> Traversable:
    """A file of the bundled demo workspace."""
    return files(__name__).joinpath(name)
