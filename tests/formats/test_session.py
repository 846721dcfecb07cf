"""Session files: exact round trips, and damaged or foreign files refused with the field named."""
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmdesk.core import SVC, DataError, make_dataset
from svmdesk.formats import Session, load_session, save_session
from svmdesk.formats.session import CVRecord, session_text

from .conftest import json_values, load_or_refuse


def _session(model=True, **changes) -> Session:
    d = make_dataset("moons", n=60, noise=0.2, seed=1)
    X, y = np.asarray(d.X), np.asarray(d.y)
    held = np.zeros(len(y), dtype=bool)
    held[::5] = True
    svc = SVC(kernel="rbf", C=3.0).fit(X[~held], y[~held]) if model else None
    fields = dict(X=X, y=y, held_out=held, class_names=("lower", "upper"),
                  feature_names=("width", "höhe"),
                  settings={"solver": "smo", "kernel": "rbf", "C": 3.0, "hard": False,
                            "max_iter": None},
                  view=(-1.5, 2.5, -1.0, 1.5), model=svc)
    fields.update(changes)
    return Session(**fields)


def test_round_trip_keeps_points_settings_view_and_a_model_that_predicts_the_same(tmp_path):
    s = _session()
    path = save_session(s, tmp_path / "lab.svmdesk")
    back = load_session(path)
    np.testing.assert_array_equal(back.X, s.X)
    np.testing.assert_array_equal(back.y, s.y)
    np.testing.assert_array_equal(back.held_out, s.held_out)
    assert back.class_names == s.class_names and back.feature_names == s.feature_names
    assert back.settings == s.settings and back.view == s.view
    np.testing.assert_array_equal(back.model.decision_function(s.X),
                                  s.model.decision_function(s.X))
    assert session_text(back) == path.read_text(encoding="utf-8")   # saving again: same bytes


EVALUATION = {"threshold": -0.25, "scale": "f", "class": "upper", "row_shares": True,
              "cross_validations": (
                  CVRecord("SMO · rbf kernel · C = 3", "accuracy", 3, 7,
                           (0.9, 0.8500000000000001, 1.0)),
                  CVRecord("ε-SVR · C = 1", "R²", 2, 0, (-0.5, 0.25)))}


def test_the_evaluation_view_state_round_trips_exactly(tmp_path):
    s = _session(evaluation=EVALUATION)
    back = load_session(save_session(s, tmp_path / "lab.svmdesk"))
    assert back.evaluation == EVALUATION


def test_a_version_3_session_opens_with_no_evaluation_state(tmp_path):
    doc = _document(tmp_path)
    doc["version"] = 3
    assert "evaluation" not in doc
    path = tmp_path / "old.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_session(path).evaluation == {}
    doc["evaluation"] = {"threshold": 0.5, "scale": "P", "class": None, "row_shares": False,
                         "cross_validations": []}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match="evaluation is not a field of this format version"):
        load_session(path)


@pytest.mark.parametrize("change, said", [
    (dict(threshold="high"), "evaluation.threshold must be a number"),
    (dict(row_shares=1), "evaluation.row_shares must be true or false"),
    (dict(scale="log"), "evaluation.scale"),
    (dict(cross_validations=[{"settings": "x", "metric": "loss", "folds": 2, "seed": 0,
                              "scores": [1.0, 1.0]}]), "evaluation.cross_validations.0..metric"),
    (dict(cross_validations=[{"settings": "x", "metric": "R²", "folds": 3, "seed": 0,
                              "scores": [1.0, 1.0]}]), "scores has 2 values but 3"),
])
def test_a_damaged_evaluation_state_is_refused_in_one_sentence(tmp_path, change, said):
    doc = json.loads(save_session(_session(evaluation=EVALUATION),
                                  tmp_path / "ok.svmdesk").read_text("utf-8"))
    doc["evaluation"].update(change)
    path = tmp_path / "bad.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match=said):
        load_session(path)


def test_a_session_without_model_or_points(tmp_path):
    empty = _session(model=False, X=np.empty((0, 2)), y=np.empty(0, int),
                     held_out=np.empty(0, bool), view=None, settings={})
    back = load_session(save_session(empty, tmp_path / "empty.svmdesk"))
    assert back.model is None and back.view is None and len(back.X) == 0


def test_saving_over_a_file_is_atomic(tmp_path, monkeypatch):
    path = save_session(_session(model=False), tmp_path / "s.svmdesk")
    before = path.read_bytes()
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(DataError, match="s.svmdesk: cannot save it .disk full"):
        save_session(_session(), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.svmdesk"]


def _document(tmp_path) -> dict:
    return json.loads(save_session(_session(), tmp_path / "ok.svmdesk").read_text("utf-8"))


BAD = [
    ("not a session", lambda d: {"format": "svmdesk-model"}, "is a model file"),
    ("other json", lambda d: [1, 2], "is not a svmdesk session file"),
    ("newer", lambda d: {**d, "version": 8}, "version is 8"),
    ("extra key", lambda d: {**d, "colour": 1}, "colour is not a field"),
    ("missing key", lambda d: {k: v for k, v in d.items() if k != "points"}, "points is missing"),
    ("one coordinate", lambda d: {**d, "points": {**d["points"], "x": [[0.0]] * 48}},
     r"points.x\[0\] has 1 features but 2 are needed"),
    ("text coordinate", lambda d: {**d, "points": {**d["points"],
                                                   "x": [["1", 2.0]] + d["points"]["x"][1:]}},
     r"points.x\[0\]\[0\] must be a number"),
    ("class out of range", lambda d: {**d, "points": {**d["points"],
                                                      "class": [5] * 60}},
     r"points.class\[0\] must be at most 1"),
    ("short flags", lambda d: {**d, "points": {**d["points"], "held_out": [True]}},
     "points.held_out has 1 flags"),
    ("flag not bool", lambda d: {**d, "points": {**d["points"],
                                                 "held_out": [0] * 60}},
     r"points.held_out\[0\] must be true or false"),
    ("nine classes", lambda d: {**d, "class_names": [str(k) for k in range(9)]},
     "must name 1 to 8 classes"),
    ("twice", lambda d: {**d, "class_names": ["a", "a"]}, "must not name a class twice"),
    ("three features", lambda d: {**d, "feature_names": ["a", "b", "c"]},
     "feature_names has 3 names"),
    ("nested setting", lambda d: {**d, "settings": {"C": [1]}}, "settings.C must be a number"),
    ("upside-down view", lambda d: {**d, "view": [1.0, 0.0, 0.0, 1.0]}, "x_min < x_max"),
    ("damaged model", lambda d: {**d, "model": {**d["model"], "kernel": {"name": "cubic"}}},
     "ok.svmdesk: model: kernel"),
]


@pytest.mark.parametrize("name, damage, words", BAD, ids=[b[0] for b in BAD])
def test_damaged_session_raises_a_clear_dataerror(tmp_path, name, damage, words):
    path = tmp_path / "ok.svmdesk"
    path.write_text(json.dumps(damage(_document(tmp_path))), encoding="utf-8")
    with pytest.raises(DataError, match=words):
        load_session(path)


@pytest.mark.parametrize("content, words", [
    (b"", "is empty"), (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
    (b'{"format": "svmdesk-session", "format": 1}', "appears twice"),
    (b'{"format": "svmdesk-session", ', "not valid JSON")])
def test_broken_files_are_refused(tmp_path, content, words):
    path = tmp_path / "x.svmdesk"
    path.write_bytes(content)
    with pytest.raises(DataError, match=words):
        load_session(path)


# -- the session file an autosave belongs to ----------------------------------------------
@pytest.mark.parametrize("where", ["/home/ana/lab.svmdesk", "/home/ana/講義 3/läb ü.svmdesk",
                                   os.fsdecode(b"/home/ana/caf\xe9/lab.svmdesk")],
                         ids=["ascii", "non-ascii", "latin-1 bytes"])
def test_an_autosave_keeps_the_session_file_it_belongs_to_exactly(tmp_path, where):
    """The autosave's own field: a path of any characters comes back exactly, the bytes of
    a file name that is not UTF-8 included (escaped in the JSON)."""
    s = _session(session_file=Path(where))
    path = save_session(s, tmp_path / "autosave-1-a.svmdesk")
    back = load_session(path)
    assert back.session_file == Path(where)
    assert os.fsencode(back.session_file) == os.fsencode(where)
    assert session_text(back) == path.read_text(encoding="utf-8")   # saving again: same bytes
    np.testing.assert_array_equal(back.X, s.X)


def test_a_saved_session_records_no_path_and_an_older_autosave_reads_without_one(tmp_path):
    path = save_session(_session(), tmp_path / "lab.svmdesk")
    assert "session_file" not in json.loads(path.read_text(encoding="utf-8"))
    assert load_session(path).session_file is None


@pytest.mark.parametrize("value", [42, None, "", "lab.svmdesk", "../x/lab.svmdesk",
                                   "/tmp/a\x00b.svmdesk", ["/tmp/lab.svmdesk"],
                                   {"path": "/tmp/lab.svmdesk"}, "/" + "x" * 40000])
def test_a_damaged_session_file_field_is_ignored_and_the_work_still_loads(tmp_path, value):
    doc = _document(tmp_path)
    doc["session_file"] = value
    path = tmp_path / "autosave-1-b.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    back = load_session(path)
    assert back.session_file is None and len(back.y) == 60


@pytest.mark.slow
@settings(max_examples=100, deadline=5000, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["points", "class_names", "feature_names", "settings", "view",
                            "model", "version", "session_file", "evaluation"]),
       value=json_values())
def test_any_value_in_any_field_is_loaded_or_refused_with_dataerror(tmp_path, key, value):
    doc = _document(tmp_path)
    doc[key] = value
    load_or_refuse(load_session, tmp_path / "fuzz.svmdesk", doc)


def test_a_number_of_thousands_of_digits_is_a_dataerror(tmp_path):
    path = tmp_path / "huge.svmdesk"
    path.write_text('{"format": "svmdesk-session", "version": ' + "9" * 5000 + "}",
                    encoding="utf-8")
    with pytest.raises(DataError, match="huge.svmdesk cannot be read"):
        load_session(path)


# -- sessions of older svmdesk: models trained on class indices ----------------------------
def _legacy_session_file(tmp_path, names, n_per_class=15, seed=2):
    """A version 1 session as the window of that time wrote it: points of the named
    classes, and a model trained on their class indices 0..k-1."""
    rng = np.random.default_rng(seed)
    k = len(names)
    centres = 4.0 * np.column_stack([np.cos(2 * np.pi * np.arange(k) / k),
                                     np.sin(2 * np.pi * np.arange(k) / k)])
    y = np.repeat(np.arange(k), n_per_class)
    X = centres[y] + 0.5 * rng.standard_normal((len(y), 2))
    held = np.zeros(len(y), dtype=bool)
    held[::4] = True
    svc = SVC(kernel="rbf", C=10.0, tol=1e-8).fit(X[~held], y[~held])
    text = session_text(Session(X=X, y=y, held_out=held, class_names=tuple(names), model=svc))
    doc = json.loads(text)
    doc["version"] = 1
    del doc["task"]                 # the field version 3 brought
    path = tmp_path / "old.svmdesk"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path, X, y, held


@pytest.mark.parametrize("names", [("-1", "1"), ("1", "-1"), ("陽性", "陰性"),
                                   ("b", "a", "c"), ("5", "4", "3", "2", "1")])
def test_an_older_session_gets_its_labels_back_and_says_so(tmp_path, names):
    from svmdesk.core import class_labels

    path, X, y, held = _legacy_session_file(tmp_path, names)
    session = load_session(path)
    labels = class_labels(names)
    np.testing.assert_array_equal(session.model.classes_, np.sort(labels))
    # exactly the model a fit on the labels gives: same predictions, decision values,
    # support vectors and libsvm layout
    direct = SVC(kernel="rbf", C=10.0, tol=1e-8).fit(X[~held], labels[y[~held]])
    np.testing.assert_array_equal(session.model.predict(X), labels[y])
    np.testing.assert_array_equal(session.model.predict(X), direct.predict(X))
    np.testing.assert_allclose(session.model.decision_function(X),
                               direct.decision_function(X), atol=1e-6)
    np.testing.assert_array_equal(session.model.support_, direct.support_)
    np.testing.assert_array_equal(session.model.n_support_, direct.n_support_)
    np.testing.assert_allclose(session.model.dual_coef_, direct.dual_coef_, atol=1e-6)
    np.testing.assert_allclose(session.model.intercept_, direct.intercept_, atol=1e-6)
    np.testing.assert_array_equal(session.model.support_vectors_, direct.support_vectors_)
    assert session.notes and "labels" in session.notes[0]
    # saved again, it is a current session: read back as it is, nothing to repair
    again = load_session(save_session(session, tmp_path / "new.svmdesk"))
    assert again.notes == ()
    np.testing.assert_array_equal(again.model.classes_, session.model.classes_)


def test_an_older_session_whose_model_has_real_labels_is_left_alone(tmp_path):
    path, X, y, held = _legacy_session_file(tmp_path, ("0", "1", "2"))
    assert load_session(path).notes == ()            # indices and labels agree
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["class_names"] = ["a", "b", "c"]
    labels = np.array(["a", "b", "c"])
    doc["model"] = json.loads(session_text(Session(
        X=X, y=y, held_out=held, class_names=("a", "b", "c"),
        model=SVC(kernel="rbf").fit(X, labels[y]))))["model"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    session = load_session(path)
    assert session.notes == ()
    np.testing.assert_array_equal(session.model.classes_, labels)


def test_a_large_session_is_written_in_pieces_as_the_same_text(tmp_path, monkeypatch):
    """Long arrays are listed and written a piece at a time (the autosave runs beside the
    window and the solver, and rests between pieces): the text is exactly what one
    json.dumps of each field writes, and it reads back exactly."""
    from svmdesk.formats import session as session_module

    monkeypatch.setattr(session_module, "PIECE", 7)       # many pieces, and ragged ends
    d = make_dataset("moons", n=123, noise=0.3, seed=5)
    model = SVC(C=3.0).fit(d.X, np.where(d.y > 0, "陽性", "陰性"))
    session = Session(X=d.X, y=d.y, held_out=np.arange(123) % 4 == 0,
                      class_names=("陰性", "陽性"), settings={"C": 3.0, "名前": "é"},
                      view=(-1.0, 2.0, -1.0, 1.5), model=model)
    document = session_module.session_document(session)
    expected = "{\n" + ",\n".join(
        f"  {json.dumps(k)}: {json.dumps(v, allow_nan=False, ensure_ascii=False)}"
        for k, v in document.items()) + "\n}\n"
    assert session_text(session) == expected
    rests = []                        # a writer beside the window rests between the pieces
    assert session_text(session, between=lambda: rests.append(1)) == expected
    assert len(rests) > 3 * 123 / 7
    assert document["points"]["x"] == np.asarray(d.X).tolist()
    back = load_session(save_session(session, tmp_path / "big.svmdesk"))
    np.testing.assert_array_equal(back.X, d.X)
    np.testing.assert_array_equal(back.y, d.y)
    np.testing.assert_array_equal(back.held_out, session.held_out)
    assert back.class_names == ("陰性", "陽性") and back.settings["名前"] == "é"
