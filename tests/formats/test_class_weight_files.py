"""class_weight in model and session files (#52): None, 'balanced' and {label: weight} come
back exactly, the labels with their types (-1, 2.0, True and 'cat' are not the strings a JSON
object's keys would make of them); a damaged class_weight is refused naming the field."""
from __future__ import annotations

import functools
import json
import math

import numpy as np
import pytest

from svmdesk.core import SVC, DataError, make_dataset
from svmdesk.formats import Session, load_model, load_session, save_model, save_session


@functools.cache
def blobs(centers=2):
    d = make_dataset("blobs", n=60, centers=centers, seed=0)
    return np.asarray(d.X), np.asarray(d.y)


def fitted(labels, class_weight, centers=2):
    X, y = blobs(centers)
    return SVC(kernel="rbf", class_weight=class_weight).fit(X, np.asarray(labels)[y])


def probe(X):
    g = np.meshgrid(*[np.linspace(a - 1, b + 1, 12) for a, b in zip(X.min(0), X.max(0))])
    return np.vstack([X, np.column_stack([c.ravel() for c in g])])


def plain_type(v) -> type:
    """numpy's scalars are saved as the plain numbers they hold (as other parameters are)."""
    return type(v.item() if isinstance(v, np.generic) else v)


def assert_same_weights(saved: SVC, loaded: SVC) -> None:
    a, b = saved.get_params(), loaded.get_params()
    assert a == b
    if isinstance(a["class_weight"], dict):
        assert list(a["class_weight"].items()) == list(b["class_weight"].items())
        assert [plain_type(k) for k in a["class_weight"]] == \
            [type(k) for k in b["class_weight"]]
        assert [plain_type(w) for w in a["class_weight"].values()] == \
            [type(w) for w in b["class_weight"].values()]
    else:
        assert type(a["class_weight"]) is type(b["class_weight"])
    P = probe(blobs(len(saved.classes_))[0])
    assert saved.decision_function(P).tobytes() == loaded.decision_function(P).tobytes()
    assert np.array_equal(saved.predict(P), loaded.predict(P))


@pytest.mark.parametrize("labels, class_weight", [
    ([0, 1], None),
    ([0, 1], "balanced"),
    ([-1, 1], {-1: 2.0, 1: 0.5}),
    ([-1, 1], {1: 3}),                                     # an int weight stays an int
    (np.array([-1, 1], dtype=np.int8), {np.int8(-1): np.float32(4.0)}),
    (["cat", "dog", "emu"], {"cat": 3.0, "emu": 0.25}),
    ([-1.0, 2.0], {2.0: 2.0, -1.0: 0.5}),
    ([False, True], {True: 2.0}),
    (np.array(["b", 2, "a"], dtype=object), {2: 2.0, "a": 0.5}),
])
def test_class_weight_round_trips_with_its_label_types(labels, class_weight, tmp_path):
    svc = fitted(labels, class_weight, centers=len(labels))
    path = save_model(svc, tmp_path / "m.json")
    loaded = load_model(path)
    assert_same_weights(svc, loaded)
    if isinstance(class_weight, dict):
        params = json.loads(path.read_text(encoding="utf-8"))["params"]
        assert isinstance(params["class_weight"], list)   # pairs, not a JSON object
    save_model(loaded, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_text() == path.read_text()


def test_a_weighted_model_differs_from_the_unweighted_one_after_loading(tmp_path):
    plain, weighted = fitted([-1, 1], None), fitted([-1, 1], {-1: 10.0})
    X = blobs()[0]
    loaded = load_model(save_model(weighted, tmp_path / "w.json"))
    assert not np.array_equal(loaded.decision_function(X), plain.decision_function(X))


def test_a_file_written_before_class_weight_existed_loads_unweighted(tmp_path):
    path = save_model(fitted([-1, 1], None), tmp_path / "m.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["params"]["class_weight"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_model(path).get_params()["class_weight"] is None


@pytest.mark.parametrize("value, words", [
    ({"-1": 2.0}, "params.class_weight must be null, 'balanced' or a list of [label, weight] "
                  "pairs; got an object"),
    ("heavy", "params.class_weight must be null, 'balanced' or a list"),
    (3.0, "params.class_weight must be null, 'balanced' or a list"),
    ([[-1]], "params.class_weight[0] must be a pair [label, weight]; got a list of 1"),
    ([[-1, 2.0], 5], "params.class_weight[1] must be a pair [label, weight]; got 5"),
    ([[[-1], 2.0]], "params.class_weight[0][0] must be a number or a string; got a list of 1"),
    ([[None, 2.0]], "params.class_weight[0][0] must be a number or a string; got null"),
    ([[-1, "2"]], "params.class_weight[0][1] must be a number; got '2'"),
    ([[-1, True]], "params.class_weight[0][1] must be a number; got true"),
    ([[-1, -2.0]], "params.class_weight[0][1] must be a weight >= 0; got -2.0"),
    ([[-1, math.inf]], "params.class_weight[0][1] must be a finite number"),
    ([[-1, 2.0], [-1, 3.0]], "params.class_weight[1] weighs class -1 a second time"),
    ([[7, 2.0]], "params.class_weight[0] weighs 7, which is not one of the model's classes "
                 "(-1, 1)"),
    ([[1, 1.0], ["-1", 2.0]], "params.class_weight[1] weighs '-1', which is not one of the "
                              "model's classes"),
])
def test_a_damaged_class_weight_is_refused_naming_the_field(value, words, tmp_path):
    path = save_model(fitted([-1, 1], {-1: 2.0}), tmp_path / "model.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["params"]["class_weight"] = value
    path.write_text(json.dumps(doc), encoding="utf-8")          # allow_nan: an Infinity token
    with pytest.raises(DataError) as info:
        load_model(path)
    assert str(info.value).startswith("model.json: ")
    assert words in str(info.value)


def test_a_session_keeps_its_models_class_weight(tmp_path):
    X, y = blobs()
    svc = SVC(kernel="rbf", class_weight={"lower": 3.0}).fit(X, np.array(["lower", "upper"])[y])
    session = Session(X=X, y=y, held_out=np.zeros(len(y), bool),
                      class_names=("lower", "upper"), model=svc)
    back = load_session(save_session(session, tmp_path / "lab.svmdesk"))
    assert back.model is not None
    assert back.model.get_params()["class_weight"] == {"lower": 3.0}
    assert_same_weights(svc, back.model)
