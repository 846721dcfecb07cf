"""The estimators' base class: parameters are the table's rows and nothing else, taken and
reported as scikit-learn's developer guide asks."""
import inspect

import pytest
from sklearn.base import clone

from svmdesk.core import SVC
from svmdesk.core.catalog import TABLE, Param
from svmdesk.core.estimators import TableEstimator

from ..fake_solver import SHRINK, ShrinkSVC


def test_init_takes_each_row_by_keyword_with_its_default_and_stores_it_unchecked():
    params = inspect.signature(SVC).parameters
    assert list(params) == list(TABLE.names)
    assert all(p.kind is p.KEYWORD_ONLY for p in params.values())
    assert {name: p.default for name, p in params.items()} == TABLE.defaults
    assert SVC(C=-5).C == -5                       # validation waits for fit
    with pytest.raises(TypeError):
        SVC("smo")                                 # by keyword only
    with pytest.raises(TypeError, match="shrink"):
        SVC(shrink=0.5)                            # not a row of SVC's table


def test_set_params_refuses_an_unknown_name_and_changes_nothing():
    svc = SVC(C=2.0)
    with pytest.raises(ValueError, match="Invalid parameter 'c' for estimator SVC"):
        svc.set_params(C=3.0, c=4.0)
    assert svc.C == 2.0
    assert svc.set_params(C=3.0, kernel="linear") is svc and svc.C == 3.0


def test_a_new_row_is_a_new_argument_of_the_estimator_built_on_its_table():
    assert "shrink" in inspect.signature(ShrinkSVC).parameters
    svc = ShrinkSVC(shrink=0.25, C=3.0)
    assert svc.get_params()["shrink"] == 0.25 and repr(svc) == "ShrinkSVC(C=3.0, shrink=0.25)"
    copy = clone(svc)
    assert copy is not svc and copy.get_params() == svc.get_params()
    assert "shrink" not in SVC().get_params()      # the base table is unchanged


def test_any_estimator_on_any_table_gets_the_same_parameter_handling():
    table = TABLE.with_rows(SHRINK, Param("width", "int", 3, "a width", low=1))

    class Other(TableEstimator, table=table):
        """An estimator that is no SVC: its own __init__, the rest from the table."""

        def __init__(self, *, width: int = 3, **params):
            for name, value in {**table.defaults, **params}.items():
                setattr(self, name, value)
            self.width = width

    other = Other(width=5)
    assert other.get_params()["width"] == 5 and repr(other) == "Other(width=5)"
    assert clone(other).width == 5
    assert not other.__sklearn_is_fitted__()
