"""Every package has a face (issue 12): an `__init__.py` with a docstring saying what the room holds
and an `__all__` naming what it offers. Alembic's migration scripts are scripts, not a package API."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "groundgate"
SCRIPTS = {"store/migrations", "store/migrations/versions"}

FOLDERS = sorted(
    {
        p.parent
        for p in PACKAGE.rglob("*.py")
        if "__pycache__" not in p.parts and p.parent.relative_to(PACKAGE).as_posix() not in SCRIPTS
    }
)


def _name(folder: Path) -> str:
    return folder.relative_to(PACKAGE.parent).as_posix().replace("/", ".")


@pytest.mark.parametrize("folder", FOLDERS, ids=_name)
def test_every_package_has_a_docstring_and_all(folder: Path) -> None:
    init = folder / "__init__.py"
    assert init.is_file(), f"{_name(folder)} has no __init__.py"
    tree = ast.parse(init.read_text(encoding="utf-8"))
    assert ast.get_docstring(tree), f"{_name(folder)}: say what the package holds"
    assert any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        for node in tree.body
    ), f"{_name(folder)}: name what it offers in __all__"


@pytest.mark.parametrize(
    "name",
    [
        "groundgate.verify",
        "groundgate.text",
        "groundgate.runtime",
        "groundgate.evaluation",
        "groundgate.evaluation.scoring",
        "groundgate.contracts",
        "groundgate.compose",
    ],
)
def test_every_name_of_a_face_resolves(name: str) -> None:
    module = importlib.import_module(name)
    for public in module.__all__:
        assert getattr(module, public) is not None, f"{name}.{public}"
