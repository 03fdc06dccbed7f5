"""The code stays readable: modules a person can hold in their head, functions short enough to
read at once, imports at the top, and each stage importing only the stages before it."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "interpreter"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 60
# what each folder may import besides interpreter.errors (its __init__.py says why)
MAY_IMPORT = {"frontend": set(), "runtime": set(), "compiler": {"frontend", "runtime"},
              "seats": {"runtime"}, "analysis": set(),
              "tools": {"frontend", "runtime", "compiler", "seats", "analysis"}}


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


@pytest.mark.parametrize("path", MODULES, ids=name)
def test_no_module_is_longer_than_800_lines(path):
    assert path.read_text(encoding="utf-8").count("\n") <= MAX_MODULE_LINES


@pytest.mark.parametrize("path", MODULES, ids=name)
def test_no_function_is_longer_than_60_lines(path):
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(tree(path))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long


@pytest.mark.parametrize("path", MODULES, ids=name)
def test_imports_stand_at_the_top_of_the_module(path):
    module = tree(path)
    top = {id(node) for node in module.body if isinstance(node, (ast.Import, ast.ImportFrom))}
    inner = [node.lineno for node in ast.walk(module) if isinstance(node, (ast.Import, ast.ImportFrom))
             and id(node) not in top]
    first_code = next((node.lineno for node in module.body if not isinstance(node, (ast.Import, ast.ImportFrom))
                       and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))), None)
    late = [node.lineno for node in module.body if id(node) in top and first_code and node.lineno > first_code]
    assert not inner and not late


def stage_imports(path: Path) -> set:
    """The stages (folders of interpreter/) a module imports."""
    folder = path.relative_to(PACKAGE).parts[0]
    found = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom) and node.level:
            parts = path.relative_to(PACKAGE).parent.parts[:len(path.relative_to(PACKAGE).parent.parts)
                                                            - (node.level - 1)]
            target = (list(parts) + (node.module or "").split("."))[0] if parts else (node.module or "").split(".")[0]
            if target and target != folder:
                found.add(target)
    return found


@pytest.mark.parametrize("path", [p for p in MODULES if p.parent != PACKAGE], ids=name)
def test_a_stage_imports_only_the_stages_before_it(path):
    folder = path.relative_to(PACKAGE).parts[0]
    assert stage_imports(path) - {"errors"} <= MAY_IMPORT[folder]
