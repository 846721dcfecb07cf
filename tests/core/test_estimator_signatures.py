"""Each estimator's __init__ is written out, as scikit-learn's are: its keyword arguments must
be its table's rows, in the table's order, with the table's defaults. A row added to a table
without its argument (or an argument the table lacks, or a default that differs) fails here."""
import inspect

import pytest

from svmdesk.core import catalog
from svmdesk.core.estimators import SVC, SVR, NuSVC, NuSVR, OneClassSVM

ESTIMATORS = [(SVC, "TABLE"), (NuSVC, "NU_TABLE"), (OneClassSVM, "ONE_CLASS_TABLE"),
              (SVR, "SVR_TABLE"), (NuSVR, "NU_SVR_TABLE")]


def init_parameters(cls) -> list[inspect.Parameter]:
    """The parameters of cls's own __init__, after self."""
    assert "__init__" in vars(cls), f"{cls.__name__} writes out its own __init__"
    params = list(inspect.signature(cls.__init__).parameters.values())
    assert params[0].name == "self"
    return params[1:]


@pytest.mark.parametrize(("cls", "table_name"), ESTIMATORS,
                         ids=[cls.__name__ for cls, _ in ESTIMATORS])
def test_init_takes_the_table_rows_in_order_with_their_defaults_by_keyword(cls, table_name):
    table = getattr(catalog, table_name)
    assert cls.table is table
    params = init_parameters(cls)
    assert [p.name for p in params] == list(table.names)
    assert [p.default for p in params] == [row.default for row in table.params]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)
    assert all(p.annotation is not inspect.Parameter.empty for p in params)


@pytest.mark.parametrize(("cls", "table_name"), ESTIMATORS,
                         ids=[cls.__name__ for cls, _ in ESTIMATORS])
def test_init_only_stores_its_arguments(cls, table_name):
    table = getattr(catalog, table_name)
    marks = {name: object() for name in table.names}     # no value is checked or converted
    estimator = cls(**marks)
    assert all(getattr(estimator, name) is mark for name, mark in marks.items())
    assert estimator.get_params() == marks
    assert cls().get_params() == table.defaults
    with pytest.raises(TypeError, match="not_a_row"):
        cls(not_a_row=1)
    with pytest.raises(TypeError):
        cls("smo")                                       # keyword only


@pytest.mark.parametrize("row", [
    catalog.Param("shrink", "real", 0.5, "how far each step moves", low=0.0, high=1.0),
])
@pytest.mark.parametrize(("cls", "table_name"), ESTIMATORS,
                         ids=[cls.__name__ for cls, _ in ESTIMATORS])
def test_a_row_added_without_its_argument_is_caught(cls, table_name, row):
    """The comparison above, against the table with one more row: it no longer agrees."""
    wider = getattr(catalog, table_name).with_rows(row)
    names = [p.name for p in init_parameters(cls)]
    assert names != list(wider.names) and row.name not in names
