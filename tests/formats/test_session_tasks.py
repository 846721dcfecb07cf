"""Sessions keep their task and what a point is in it: a class (classification), an outlier
mark the model never sees (novelty), a numeric target (regression), with a model of the
task's kind; version 2 sessions open as classification; a file contradicting its task is
refused naming the field."""
import json
import re

import numpy as np
import pytest

from svmdesk.core import SVC, DataError, NuSVR, OneClassSVM
from svmdesk.formats.session import Session, load_session, save_session, session_text


def _points(n=40, seed=4):
    rng = np.random.default_rng(seed)
    return rng.normal(0, 1, (n, 2)), np.arange(n) % 5 == 0


def _session(task):
    X, held = _points()
    if task == "regression":
        targets = np.sin(X[:, 0]) + X[:, 1] / 3
        targets[3] = 1e-300                              # exact, however small
        return Session(X=X, y=np.zeros(len(X), int), held_out=held, class_names=(),
                       task=task, targets=targets,
                       model=NuSVR(nu=0.4).fit(X[~held], targets[~held]))
    if task == "novelty":
        marks = np.zeros(len(X), bool)
        marks[[1, 7]] = True
        return Session(X=X, y=np.zeros(len(X), int), held_out=held, class_names=(),
                       task=task, outliers=marks,
                       model=OneClassSVM(nu=0.2).fit(X[~marks & ~held]))
    y = (X[:, 0] > 0).astype(int)
    return Session(X=X, y=y, held_out=held, class_names=("-1", "1"),
                   model=SVC().fit(X[~held], np.array([-1, 1])[y[~held]]))


@pytest.mark.parametrize("task", ["classification", "novelty", "regression"])
def test_each_task_round_trips_exactly(task, tmp_path):
    session = _session(task)
    save_session(session, tmp_path / "s.svmdesk")
    loaded = load_session(tmp_path / "s.svmdesk")
    assert loaded.task == task and loaded.class_names == session.class_names
    np.testing.assert_array_equal(loaded.X, session.X)
    np.testing.assert_array_equal(loaded.held_out, session.held_out)
    np.testing.assert_array_equal(loaded.per_point(), session.per_point())
    assert loaded.per_point().dtype == session.per_point().dtype
    np.testing.assert_array_equal(loaded.model.predict(session.X), session.model.predict(session.X))
    assert type(loaded.model) is type(session.model)
    assert session_text(loaded) == session_text(session)     # saved again: the same text


def test_a_version_2_session_opens_as_classification(tmp_path):
    doc = json.loads(session_text(_session("classification")))
    doc["version"] = 2
    del doc["task"]
    (tmp_path / "v2.svmdesk").write_text(json.dumps(doc), encoding="utf-8")
    loaded = load_session(tmp_path / "v2.svmdesk")
    assert loaded.task == "classification" and loaded.class_names == ("-1", "1")


def _damaged(task, damage, tmp_path):
    doc = json.loads(session_text(_session(task)))
    damage(doc)
    path = tmp_path / "bad.svmdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("task, damage, words", [
    ("regression", lambda d: d.update(task="clustering"), "task must be"),
    ("regression", lambda d: d["points"]["target"].__setitem__(2, "tall"),
     "points.target[2] must be a number"),
    ("regression", lambda d: d["points"].update(target=[1.0]), "points.target has 1 targets"),
    ("novelty", lambda d: d["points"]["outlier"].__setitem__(0, 1),
     "points.outlier[0] must be true or false"),
    ("novelty", lambda d: d.update(class_names=["a"]), "class_names must be empty"),
    ("regression", lambda d: d.update(task="novelty"), "points.outlier is missing"),
    ("novelty", lambda d: d.update(model=json.loads(session_text(_session("regression")))
                                   ["model"]), "model is a nu_svr model"),
    ("classification", lambda d: d.pop("task"), "task is missing"),
])
def test_a_session_contradicting_its_task_is_refused(task, damage, words, tmp_path):
    with pytest.raises(DataError, match=re.escape(words)) as info:
        load_session(_damaged(task, damage, tmp_path))
    assert str(info.value).startswith("bad.svmdesk")


def test_a_nan_target_is_not_saved(tmp_path):
    session = _session("regression")
    session.targets[0] = np.nan
    with pytest.raises(DataError, match="NaN or infinite target"):
        save_session(session, tmp_path / "s.svmdesk")
    assert not (tmp_path / "s.svmdesk").exists()
