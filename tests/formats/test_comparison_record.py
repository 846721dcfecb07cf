"""The Compare solvers window's comparison in a session: an exact round trip of its table,
curves and models (a failed run's message and a stopped run's row too), long curves thinned
as their chart draws them, and a damaged record refused in one sentence naming the field."""
import json
import math

import numpy as np
import pytest

from svmdesk.core import SVC, DataError, OneClassSVM, make_dataset
from svmdesk.core.catalog import TABLE
from svmdesk.core.comparison import Entry, Row, compare
from svmdesk.formats import load_session, save_session
from svmdesk.formats.comparison_record import (
    MOST_CURVE_POINTS,
    ComparedRun,
    ComparisonRecord,
    thinned,
)
from svmdesk.formats.model_json import model_document

from .test_session import _document, _session

SHARED = {**TABLE.defaults, "kernel": "linear"}


def _record() -> ComparisonRecord:
    d = make_dataset("moons", n=60, noise=0.2, seed=1)
    X, y = np.asarray(d.X), np.asarray(d.y)
    entries = [Entry("smo", 0.5), Entry("primal-subgradient", 2.0)]
    rows = compare(entries, SHARED, X[:45], y[:45], X[45:], y[45:])
    curve = np.column_stack([np.linspace(0.001, 0.1, 30), np.arange(30.0),
                             np.linspace(9.0, 3.0, 30), np.linspace(1.0, 2.9, 30)])
    primal_curve = curve.copy()
    primal_curve[:, 3] = np.nan
    runs = [ComparedRun(e.solver, e.C, row, "", c,
                        SVC(**e.params(SHARED)).fit(X[:45], y[:45]))
            for e, row, c in zip(entries, rows, (curve, primal_curve))]
    runs.append(ComparedRun("dual-gradient", math.inf, None, "the solver ran out of memory",
                            np.empty((0, 4)), None))
    runs.append(ComparedRun("pegasos", 1.0, Row(0.25, 12, 4.5, None, None, None, None, None,
                                                None, False, stopped=True), "",
                            curve[:12], None))
    return ComparisonRecord("linear kernel · tol = 0.001", tuple(runs))


def test_a_comparison_round_trips_exactly(tmp_path):
    record = _record()
    back = load_session(save_session(_session(comparison=record), tmp_path / "a.svmdesk")
                        ).comparison
    assert back == record                       # settings, solvers, C, rows, errors
    X = make_dataset("moons", n=60, noise=0.2, seed=1).X
    for before, after in zip(record.runs, back.runs):
        assert np.array_equal(before.curve, after.curve, equal_nan=True)
        if before.model is None:
            assert after.model is None
        else:
            assert np.array_equal(before.model.decision_function(X),
                                  after.model.decision_function(X))
    assert back.runs[2].C == math.inf and back.runs[3].row.stopped


def test_a_long_curve_is_thinned_over_the_log_of_its_iterations():
    curve = np.column_stack([np.arange(50_000) / 1e4, np.arange(50_000.0),
                             np.linspace(5, 1, 50_000), np.linspace(0, 1, 50_000)])
    kept = thinned(curve)
    assert len(kept) <= MOST_CURVE_POINTS + 2
    assert np.array_equal(kept[0], curve[0]) and np.array_equal(kept[-1], curve[-1])
    assert (kept[:, 1] < 10).sum() == 10        # every early iteration (log scale) stays
    assert np.all(np.diff(kept[:, 1]) > 0)


def test_a_version_5_session_opens_without_a_comparison_and_may_hold_none(tmp_path):
    doc = _document(tmp_path)
    doc["version"] = 5
    path = tmp_path / "old.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_session(path).comparison is None
    doc["comparison"] = json.loads(save_session(_session(comparison=_record()), tmp_path /
                                                "new.svmdesk").read_text("utf-8"))["comparison"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match="comparison is not a field of this format version"):
        load_session(path)


def _damaged(doc, where, value):
    run = doc["comparison"]["runs"][0]
    if where.startswith("row."):
        run["row"][where[4:]] = value
    elif where.startswith("curve."):
        run["curve"][where[6:]] = value
    elif where == "runs":
        doc["comparison"]["runs"] = value
    else:
        run[where] = value


@pytest.mark.parametrize("where, value, said", [
    ("runs", [], r"comparison.runs must hold 1 to 5 runs; got 0"),
    ("solver", "newton", r"comparison.runs\[0\].solver must be one of"),
    ("C", -1.0, r"comparison.runs\[0\].C must be positive"),
    ("row.agreement", 1.5, r"comparison.runs\[0\].row.agreement must lie between 0 and 1"),
    ("row.iterations", 2.5, r"comparison.runs\[0\].row.iterations must be an integer"),
    ("row.seconds", -1.0, r"comparison.runs\[0\].row.seconds must not be negative"),
    ("curve.primal", [1.0], r"comparison.runs\[0\].curve.primal has 1 values but 30"),
    ("model", {"format": "svmdesk-model"}, r"comparison.runs\[0\].model"),
    ("error", 3, r"comparison.runs\[0\].error must be a string"),
    ("model", "one-class", r"comparison.runs\[0\].model must be a C-SVC model"),
])
def test_a_damaged_comparison_is_refused_in_one_sentence(tmp_path, where, value, said):
    doc = json.loads(save_session(_session(comparison=_record()), tmp_path / "ok.svmdesk")
                     .read_text("utf-8"))
    if value == "one-class":
        value = model_document(OneClassSVM().fit(make_dataset("moons", n=20, seed=0).X))
    _damaged(doc, where, value)
    path = tmp_path / "bad.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match=said):
        load_session(path)
