"""Every public function and method of core, formats and drawing says the types it takes and
returns (mypy checks them against their uses: .ci/run). Private helpers and functions
nested in others are free to stay plain."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "svmdesk"
TYPED = ("core", "formats", "drawing")
SPECIAL = ("__init__", "__call__")


def _public_functions(tree: ast.Module):
    """Module-level functions and the methods of module-level classes, public by name."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            yield node.name, node
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and (
                        not item.name.startswith("_") or item.name in SPECIAL):
                    yield f"{node.name}.{item.name}", item


def _untyped(node: ast.FunctionDef) -> list:
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    args += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
    missing = [a.arg for a in args if a.annotation is None and a.arg not in ("self", "cls")]
    return missing + (["return"] if node.returns is None else [])


def test_every_package_named_exists():
    """A package renamed is checked under its new name (a missing one checked nothing)."""
    assert [p for p in TYPED if not (PACKAGE / p / "__init__.py").is_file()] == []


@pytest.mark.slow
def test_the_public_functions_of_core_formats_and_drawing_are_annotated():
    found = []
    for package in TYPED:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            for name, node in _public_functions(ast.parse(path.read_text(encoding="utf-8"))):
                missing = _untyped(node)
                if missing:
                    found.append(f"{path.relative_to(PACKAGE)}: {name} ({', '.join(missing)})")
    assert found == [], "\n".join(found)
