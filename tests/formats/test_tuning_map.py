"""The Tune panel's C-gamma map in a session: an exact round trip (a cancelled map's cells
too), the best cell as GridSearchCV picks it, and a damaged map refused in one sentence that
names the field."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmdesk.core import DataError
from svmdesk.formats import load_session, save_session
from svmdesk.formats.tuning_map import TunedCell, TuningMap, map_table_text, read_map_table

from .test_session import _document, _session

CELLS = (TunedCell(0.5, 2.0, (0.75, 0.5), (0.01, 0.02)),
         TunedCell(8.0, 0.125, (1.0, 0.875), (0.03, 0.04)),
         TunedCell(2.0, 0.125, (1.0, 0.875), (0.005, 0.006)))
MAP = TuningMap((0.5, 2.0, 8.0), (0.125, 2.0), 2, 0, "accuracy",
                "SMO · RBF kernel", CELLS, points="digest")


def test_a_map_round_trips_exactly_and_its_best_is_the_first_of_equals(tmp_path):
    back = load_session(save_session(_session(tuning=MAP), tmp_path / "lab.svmdesk")).tuning
    assert back == MAP and back.cells == CELLS and back.points is None
    assert [type(v) for v in back.C + back.gamma] == [float] * 5
    # equal means: the first in the grid's order (C slowest), not the first to finish
    assert (back.best().C, back.best().gamma) == (2.0, 0.125) and back.size == 6
    assert TuningMap((1.0,), (1.0,), 2, 0, "R²", "").best() is None


def test_a_version_4_session_opens_without_a_map_and_may_hold_none(tmp_path):
    doc = _document(tmp_path)
    doc["version"] = 4
    path = tmp_path / "old.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_session(path).tuning is None
    doc["tuning"] = json.loads(save_session(_session(tuning=MAP), tmp_path / "new.svmdesk")
                               .read_text("utf-8"))["tuning"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match="tuning is not a field of this format version"):
        load_session(path)


@pytest.mark.parametrize("change, said", [
    (dict(C=[2.0, 1.0]), "tuning.C must be increasing"),
    (dict(gamma=[]), "tuning.gamma must hold 1 to 100 values; got 0"),
    (dict(gamma=[0.0, 1.0]), r"tuning.gamma\[0\] must be positive"),
    (dict(folds=1), "tuning.folds must be at least 2"),
    (dict(metric="loss"), "tuning.metric must be one of"),
    (dict(cells=[{"C": 3.0, "gamma": 2.0, "scores": [1, 1], "fit_times": [0, 0]}]),
     r"tuning.cells\[0\] is not a cell of the map's values"),
    (dict(cells=[{"C": 0.5, "gamma": 2.0, "scores": [1], "fit_times": [0, 0]}]),
     r"tuning.cells\[0\].scores has 1 values but 2"),
    (dict(cells=[{"C": 0.5, "gamma": 2.0, "scores": [1, 1], "fit_times": [0, 0]}] * 2),
     r"tuning.cells\[1\] is a cell the map already holds"),
])
def test_a_damaged_map_is_refused_in_one_sentence(tmp_path, change, said):
    doc = json.loads(save_session(_session(tuning=MAP), tmp_path / "ok.svmdesk")
                     .read_text("utf-8"))
    doc["tuning"].update(change)
    path = tmp_path / "bad.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match=said):
        load_session(path)


# -- the map's cells as a CSV table ---------------------------------------------------------------
axis_values = st.lists(st.floats(1e-300, 1e300), min_size=1, max_size=4, unique=True).map(
    lambda values: tuple(sorted(values)))


@st.composite
def maps(draw):
    C, gamma, folds = draw(axis_values), draw(axis_values), draw(st.integers(2, 5))
    done = draw(st.lists(st.tuples(st.sampled_from(C), st.sampled_from(gamma)), unique=True))
    scores = st.tuples(*[st.floats(-1e6, 1.0)] * folds)
    times = st.tuples(*[st.floats(0.0, 1e4)] * folds)
    cells = tuple(TunedCell(c, g, draw(scores), draw(times)) for c, g in done)
    return TuningMap(C, gamma, folds, 0, "accuracy", "rbf kernel", cells)


@settings(max_examples=100, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
@given(maps())
def test_the_maps_table_reads_back_every_cell_exactly_in_the_grids_order(tuning):
    cells = read_map_table(map_table_text(tuning))
    order = sorted(tuning.cells, key=lambda c: (tuning.C.index(c.C),
                                                tuning.gamma.index(c.gamma)))
    assert cells == tuple(order)


def test_the_maps_table_has_grids_columns_and_a_damaged_one_is_refused():
    tuning = TuningMap((1.0, 10.0), (0.5,), 2, 0, "accuracy", "rbf kernel",
                       (TunedCell(10.0, 0.5, (0.75, 1.0), (0.001, 0.002)),))
    text = map_table_text(tuning)
    header, row = text.splitlines()
    assert header == ("C,gamma,mean_score,std_score,split0_score,split1_score,"
                      "mean_fit_time,split0_fit_time,split1_fit_time")
    assert row.startswith("10.0,0.5,0.875,0.125,0.75,1.0,")
    for damaged, where in ((text.replace("10.0,0.5", "-1,0.5"), "line 2, C"),
                           (text.replace(",0.001,", ",soon,"), "line 2, split0_fit_time"),
                           (text.replace("gamma", "g"), "line 1"),
                           (text + "1.0,0.5\n", "line 3")):
        with pytest.raises(DataError, match=where):
            read_map_table(damaged)
