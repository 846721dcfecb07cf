"""One table of machine kinds: a kind's key is spelled where the table is, and every part of
svmdesk that tells kinds apart asks the table."""
import ast
from pathlib import Path

import pytest

import svmdesk
from svmdesk.core import kinds
from svmdesk.core.kinds import KINDS

PACKAGE = Path(svmdesk.__file__).parent


def _constants(path: Path) -> set:
    """The string constants of a module's code (a docstring's words are not one)."""
    return {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_a_kinds_key_is_spelled_in_at_most_two_modules(kind):
    spelled = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("*.py"))
               if {kind.key, kind.option} & _constants(path)]
    assert len(spelled) <= 2, spelled
    assert "core/kinds.py" in spelled


def test_the_rows_are_libsvms_svm_types_in_order():
    assert [k.svm_type for k in KINDS.values()] == [0, 1, 2, 3, 4]
    assert [k.option for k in KINDS.values()] == ["c-svc", "nu-svc", "one-class",
                                                 "epsilon-svr", "nu-svr"]
    assert {k.task for k in KINDS.values()} == {kinds.CLASSIFICATION, kinds.NOVELTY,
                                                kinds.REGRESSION}


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_each_kind_names_the_estimator_that_trains_it_over_its_table(kind):
    estimator = kind.estimator
    assert estimator.kind == kind.key and estimator.table is kind.table
    assert kinds.by_option()[kind.option] is kind


def test_each_task_has_a_default_kind_first():
    assert [k.key for k in kinds.of_task(kinds.CLASSIFICATION)] == ["c_svc", "nu_svc"]
    assert kinds.of_task(kinds.NOVELTY) == (kinds.ONE_CLASS,)
    assert kinds.of_task(kinds.REGRESSION)[0] is kinds.EPSILON_SVR
