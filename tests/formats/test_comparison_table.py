"""A comparison's table as CSV: every number reads back exactly (the core's rows of real
runs, and any row hypothesis draws), a failed run's message too, and a damaged table is
refused in one sentence naming the line and the column."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmdesk.core import DataError, make_dataset
from svmdesk.core.catalog import TABLE
from svmdesk.core.comparison import Entry, Row, compare
from svmdesk.formats.comparison_table import COLUMNS, one_line, read_table, table_text

SHARED = {**TABLE.defaults, "kernel": "linear"}


def same(a, b) -> bool:
    """Equal, NaN equal to NaN (a row's objectives may be NaN)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b and type(a) is type(b)


def assert_same_runs(read, written) -> None:
    assert len(read) == len(written)
    for (entry, result), (entry0, result0) in zip(read, written):
        assert entry == entry0
        if isinstance(result0, str):
            assert result == result0
            continue
        for name in Row.__dataclass_fields__:
            assert same(getattr(result, name), getattr(result0, name)), name


def test_the_cores_rows_of_real_runs_read_back_exactly():
    d = make_dataset("moons", n=80, noise=0.2, seed=3)
    X, y = np.asarray(d.X), np.asarray(d.y)
    entries = [Entry("smo", 0.5), Entry("primal-subgradient", 2.0), Entry("smo", math.inf)]
    rows = compare(entries, SHARED, X[:60], y[:60], X[60:], y[60:])
    runs = list(zip(entries, rows))
    assert_same_runs(read_table(table_text(runs)), runs)
    assert rows[1].dual is None                   # a primal solver's: an empty cell
    assert table_text(runs).splitlines()[0] == ",".join(COLUMNS)


numbers = st.floats(allow_nan=True, allow_infinity=True, width=64)
shares = st.floats(0.0, 1.0)
rows = st.builds(Row, st.floats(0.0, 1e6), st.integers(0, 10**9), numbers,
                 st.none() | numbers, st.none() | numbers, st.none() | st.integers(0, 10**6),
                 st.none() | shares, st.none() | shares, st.none() | shares, st.booleans(),
                 st.booleans())
entries = st.builds(Entry, st.sampled_from(sorted(TABLE.solvers)),
                    st.floats(1e-300, 1e300) | st.just(math.inf))
failures = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)),
                   min_size=1, max_size=40).map(one_line).filter(bool)


@settings(max_examples=100, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(entries, rows | failures), max_size=6))
def test_any_table_reads_back_exactly(runs):
    assert_same_runs(read_table(table_text(runs)), runs)


@pytest.mark.parametrize("change, where", [
    (lambda lines: ["solver,C"] + lines[1:], "line 1"),
    (lambda lines: [lines[0], lines[1].replace("smo,", "newton,", 1)], "line 2, solver"),
    (lambda lines: [lines[0], lines[1].replace("smo,0.5,", "smo,-1,", 1)], "line 2, C"),
    (lambda lines: [lines[0], lines[1].replace(",True,False,", ",yes,False,", 1)],
     "line 2, converged"),
    (lambda lines: [lines[0], lines[1] + ",extra"], "line 2"),
    (lambda lines: [lines[0], ",".join(lines[1].split(",")[:-1] + ["broken"])],
     "line 2, error"),
])
def test_a_damaged_table_is_refused_naming_the_line_and_column(change, where):
    row = Row(0.5, 12, 1.25, 1.0, 0.25, 7, 0.9, None, 1.0, True)
    lines = table_text([(Entry("smo", 0.5), row)]).splitlines()
    with pytest.raises(DataError, match=where):
        read_table("\n".join(change(lines)))


def test_an_accuracy_above_one_is_refused():
    row = Row(0.5, 12, 1.25, 1.0, 0.25, 7, 0.9, None, 1.0, True)
    text = table_text([(Entry("smo", 0.5), row)]).replace(",0.9,", ",1.5,")
    with pytest.raises(DataError, match="train_accuracy"):
        read_table(text)


def test_a_failed_runs_message_is_written_on_one_line():
    text = table_text([(Entry("smo", 1.0), "out of\r\nmemory\x00 now\t")])
    assert read_table(text)[0][1] == "out of memory now"
    assert len(text.splitlines()) == 2
