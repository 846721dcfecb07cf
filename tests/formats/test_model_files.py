"""Model files: the JSON model (save_model / load_model) and the export to LIBSVM's format.

The JSON round trip must be exact (bit-identical outputs and fitted attributes); a damaged or
foreign file must raise DataError naming the file and the field. The LIBSVM export is checked
by LIBSVM itself (the libsvm-official binding): its labels and decision values must be ours.
"""
from __future__ import annotations

import copy
import functools
import inspect
import json
import math
import os
import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris

from svmdesk.core import SVC, DataError, make_dataset
from svmdesk.formats import (
    checked_json,
    export_libsvm,
    libsvm_model,
    load_model,
    model_json,
    model_json_fields,
    model_json_reading,
    save_model,
    session,
)
from svmdesk.formats.relabelling import relabelled

from .conftest import json_values, load_or_refuse

SOLVER_KERNELS = [("smo", k) for k in ("linear", "poly", "rbf", "sigmoid")] + [
    ("dual-gradient", k) for k in ("linear", "poly", "rbf", "sigmoid")] + [
    ("kernel-gradient", k) for k in ("linear", "poly", "rbf", "sigmoid")] + [
    ("primal-subgradient", "linear"), ("pegasos", "linear")]
FITTED = ("classes_", "support_", "support_vectors_", "dual_coef_", "intercept_", "n_support_",
          "n_iter_", "objective_", "converged_", "gamma_", "n_features_in_")


# ----------------------------------------------------------------------------- data and helpers
@functools.cache
def blobs(centers=2):
    d = make_dataset("blobs", n=60, centers=centers, seed=0)
    return np.asarray(d.X), np.asarray(d.y)


@functools.cache
def iris2():
    """Iris on its first two features: three overlapping classes, duplicate points."""
    X, y = load_iris(return_X_y=True)
    return np.ascontiguousarray(X[:, :2]), y


def fit(X, y, **params):
    params.setdefault("random_state", 0)
    if params.get("solver") in ("primal-subgradient", "kernel-gradient"):
        params.setdefault("max_iter", 500)     # keeps the suite fast; convergence is not tested
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SVC(**params).fit(X, y)


def probe_points(X):
    """The training points and a grid around them."""
    lo, hi = X.min(axis=0) - 1, X.max(axis=0) + 1
    g = np.meshgrid(*[np.linspace(a, b, 15) for a, b in zip(lo, hi)])
    return np.vstack([X, np.column_stack([c.ravel() for c in g])])


def same_array(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes() if \
        a.dtype.kind != "O" else a.shape == b.shape and a.tolist() == b.tolist()


def assert_same_svc(saved, loaded, X):
    assert type(loaded) is SVC
    assert loaded.get_params() == saved.get_params()
    assert [type(v) for v in loaded.get_params().values()] == \
        [type(v) for v in saved.get_params().values()]
    for name in FITTED:
        a, b = getattr(saved, name), getattr(loaded, name)
        if name == "gamma_":   # np.float64 for gamma='scale' after fit, float after load
            assert isinstance(b, float) and a == b
            continue
        assert type(a) is type(b), name
        assert same_array(a, b), name
    m, n = saved.model_, loaded.model_
    assert m.kernel == n.kernel and same_array(m.classes, n.classes)
    assert (m.scaler is None) == (n.scaler is None)
    if m.scaler is not None:
        assert same_array(m.scaler.mean, n.scaler.mean)
        assert same_array(m.scaler.scale, n.scaler.scale)
    assert len(m.machines) == len(n.machines)
    for a, b in zip(m.machines, n.machines):
        for field in ("support", "support_vectors", "dual_coef", "w"):
            assert (getattr(a, field) is None) == (getattr(b, field) is None), field
            if getattr(a, field) is not None:
                assert same_array(getattr(a, field), getattr(b, field)), field
        assert (a.bias, a.positive, a.negative) == (b.bias, b.positive, b.negative)
        assert type(a.bias) is type(b.bias)
    if m.kernel.name == "linear":
        assert same_array(saved.coef_, loaded.coef_)
    P = probe_points(X)
    assert same_array(saved.decision_function(P), loaded.decision_function(P))
    assert same_array(saved.predict(P), loaded.predict(P))


def round_trip(svc, tmp_path, name="model.json"):
    path = tmp_path / name
    assert save_model(svc, path) == path
    return load_model(path)


# ----------------------------------------------------------------------------- JSON round trip
@pytest.mark.parametrize("solver,kernel", SOLVER_KERNELS)
def test_round_trip_binary_every_solver_and_kernel(solver, kernel, tmp_path):
    X, y = blobs()
    svc = fit(X, y, solver=solver, kernel=kernel)
    assert_same_svc(svc, round_trip(svc, tmp_path), X)


@pytest.mark.parametrize("solver,kernel", SOLVER_KERNELS)
def test_round_trip_three_classes_standardized(solver, kernel, tmp_path):
    X, y = blobs(3)
    svc = fit(X, y, solver=solver, kernel=kernel, standardize=True, C=2.0)
    loaded = round_trip(svc, tmp_path)
    assert_same_svc(svc, loaded, X)
    assert loaded.model_.scaler is not None and len(loaded.model_.machines) == 3


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
def test_round_trip_iris_three_classes(kernel, tmp_path):
    X, y = iris2()
    svc = fit(X, y, kernel=kernel, gamma=0.7, coef0=0.5 if kernel != "rbf" else 0.0)
    assert_same_svc(svc, round_trip(svc, tmp_path), X)


def test_round_trip_of_a_model_without_support_vectors(tmp_path):
    X, y = blobs(3)
    svc = fit(X, y, solver="pegasos", kernel="linear")
    assert any(len(m.support) == 0 for m in svc.model_.machines)   # the case under test
    assert_same_svc(svc, round_trip(svc, tmp_path), X)


@pytest.mark.parametrize("labels", [
    np.array(["cat", "dog", "emu"]),
    np.array(["no", "yes"], dtype="<U10"),          # wider than its labels: dtype kept
    np.array([-1.0, 2.0]),
    np.array([3, 7], dtype=np.int32),
    np.array([-1, 1], dtype=np.int8),
    np.array([False, True]),
    np.array(["b", 2, "a"], dtype=object),           # unsortable: order of appearance
])
def test_round_trip_keeps_labels_and_their_type(labels, tmp_path):
    X, y = blobs(len(labels))
    svc = fit(X, labels[y], kernel="rbf")
    loaded = round_trip(svc, tmp_path)
    assert_same_svc(svc, loaded, X)
    assert loaded.classes_.dtype == svc.classes_.dtype
    assert [type(c) for c in loaded.classes_.tolist()] == [type(c) for c in svc.classes_.tolist()]
    assert np.array_equal(loaded.predict(X), svc.predict(X))


@pytest.mark.parametrize("C", [None, math.inf, 5, 0.5])
def test_round_trip_keeps_params_verbatim(C, tmp_path):
    X, y = blobs()
    svc = fit(X, y, kernel="poly", C=C, gamma=2, degree=2, coef0=1.0, tol=1e-4, random_state=4)
    loaded = round_trip(svc, tmp_path)
    assert_same_svc(svc, loaded, X)
    assert loaded.C == C and type(loaded.C) is type(C)
    assert loaded.gamma == 2 and type(loaded.gamma) is int


def test_numpy_scalar_params_are_saved_as_plain_numbers(tmp_path):
    X, y = blobs()
    svc = fit(X, y, C=np.float32(2.0), random_state=np.int64(4))
    loaded = round_trip(svc, tmp_path)
    assert loaded.random_state == 4 and type(loaded.random_state) is int
    assert loaded.C == 2.0 and type(loaded.C) is float
    assert np.array_equal(loaded.decision_function(X), svc.decision_function(X))


def test_standardized_linear_model_keeps_coef_and_intercept_in_input_units(tmp_path):
    X, y = iris2()
    svc = fit(X * [100.0, 0.01] + [5.0, -3.0], y, kernel="linear", standardize=True)
    loaded = round_trip(svc, tmp_path)
    assert same_array(svc.coef_, loaded.coef_)
    assert same_array(svc.intercept_, loaded.intercept_)


def test_saving_again_writes_the_same_bytes_and_the_file_is_readable(tmp_path):
    X, y = iris2()
    svc = fit(X, y, kernel="rbf", standardize=True)
    loaded = round_trip(svc, tmp_path, "a.json")
    save_model(loaded, tmp_path / "b.json")
    text = (tmp_path / "a.json").read_text(encoding="utf-8")
    assert text == (tmp_path / "b.json").read_text(encoding="utf-8")
    doc = json.loads(text)   # plain standard JSON, one top-level key per line
    assert list(doc)[:2] == ["format", "version"] and doc["format"] == "svmdesk-model"
    assert doc["version"] == model_json.VERSION == 3 and doc["kind"] == "c_svc"
    assert set(doc["machines"][0]) == {"support", "support_vectors", "dual_coef", "bias",
                                       "positive", "negative", "w"}
    assert set(doc["training"]) == {"solver", "n_iter", "objective", "converged", "n_samples",
                                    "n_features", "feature_min", "feature_max"}
    np.testing.assert_array_equal(loaded.feature_min_, X.min(axis=0))
    np.testing.assert_array_equal(loaded.feature_max_, X.max(axis=0))
    assert doc["kernel"]["name"] == "rbf" and doc["scaler"] is not None
    assert text.count("\n") < 30   # arrays inline: a student can read the structure


def test_non_finite_objective_is_stored_as_a_word(tmp_path):
    X, y = blobs()
    svc = fit(X, y, kernel="rbf")
    svc.objective_ = -math.inf
    loaded = round_trip(svc, tmp_path)
    assert loaded.objective_ == -math.inf
    assert json.loads((tmp_path / "model.json").read_text())["training"]["objective"] == "-inf"


def test_saving_an_unfitted_svc_fails_and_writes_nothing(tmp_path):
    with pytest.raises(AttributeError, match="not fitted"):
        save_model(SVC(), tmp_path / "m.json")
    assert list(tmp_path.iterdir()) == []


def test_saving_params_changed_into_invalid_ones_fails(tmp_path):
    X, y = blobs()
    svc = fit(X, y).set_params(C=-1)
    with pytest.raises(DataError, match="parameters are not valid"):
        save_model(svc, tmp_path / "m.json")
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------- atomic writes
def test_save_replaces_atomically_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    X, y = blobs()
    path = tmp_path / "m.json"
    save_model(fit(X, y, kernel="linear"), path)
    before = path.read_bytes()
    fsynced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (fsynced.append(fd), real_fsync(fd))[1])
    save_model(fit(X, y, kernel="rbf"), path)
    assert fsynced and path.read_bytes() != before
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]

    def broken_replace(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", broken_replace)
    current = path.read_bytes()
    with pytest.raises(DataError, match="m.json: cannot save it .disk full"):
        save_model(fit(X, y, kernel="poly"), path)
    assert path.read_bytes() == current      # the old file is intact
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]   # the temp file was removed


@pytest.mark.parametrize("module", [model_json, model_json_reading, model_json_fields,
                                    libsvm_model, checked_json, session])
def test_file_readers_and_writers_use_no_pickle_and_no_eval(module):
    source = inspect.getsource(module)
    assert not re.search(r"^\s*(import|from)\s+(pickle|marshal|shelve)", source, re.M)
    assert not re.search(r"\b(eval|exec)\(", source)


# ----------------------------------------------------------------------------- damaged files
@functools.cache
def _reference_docs():
    """Valid documents: a 3-class standardized linear model (w and a scaler) and a binary
    rbf one, with the number of support vectors of their second machine."""
    X, y = iris2()
    linear = fit(X, y, kernel="linear", standardize=True)
    X2, y2 = blobs()
    rbf = fit(X2, y2, kernel="rbf")
    return {key: json.loads(_text_of(svc)) for key, svc in (("linear3", linear), ("rbf2", rbf))}


def _text_of(svc):
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.json")
        save_model(svc, path)
        with open(path, encoding="utf-8") as f:
            return f.read()


def _doc(key="linear3"):
    return copy.deepcopy(_reference_docs()[key])


def _write(tmp_path, doc, name="model.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")   # allow_nan: NaN/Infinity tokens
    return path


def _set(doc, dotted, value):
    *head, last = dotted.split(".")
    target = doc
    for part in head:
        target = target[int(part)] if isinstance(target, list) else target[part]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return doc


def _drop(doc, dotted):
    *head, last = dotted.split(".")
    target = doc
    for part in head:
        target = target[int(part)] if isinstance(target, list) else target[part]
    del target[last]
    return doc


def _m1(doc):
    return doc["machines"][1]


def _shorten_coef(doc):
    _m1(doc)["dual_coef"].pop()
    return doc


def _shorten_sv(doc):
    _m1(doc)["support_vectors"].pop()
    return doc


def _swap_pair(doc):
    m = _m1(doc)
    m["positive"], m["negative"] = m["negative"], m["positive"]
    return doc


def _drop_machine(doc):
    doc["machines"].pop()
    return doc


def _three_features(doc):
    doc["machines"][0]["support_vectors"][0].append(1.0)
    return doc


def _duplicate_support(doc):
    m = doc["machines"][0]
    m["support"][1] = m["support"][0]
    return doc


def _miss_support_index(doc):
    s = doc["support"]
    s["indices"].pop()
    s["vectors"].pop()
    s["n_support"][-1] -= 1
    return doc


def _shuffle_support(doc):
    s = doc["support"]
    s["indices"][0], s["indices"][1] = s["indices"][1], s["indices"][0]
    s["vectors"][0], s["vectors"][1] = s["vectors"][1], s["vectors"][0]
    return doc


def _wrong_split(doc):
    s = doc["support"]
    s["n_support"][0] -= 1
    s["n_support"][2] += 1
    return doc


def _move_vector(doc):
    doc["support"]["vectors"][2][0] += 0.5
    return doc


def _unsorted_classes(doc):
    doc["classes"] = doc["classes"][::-1]
    return doc


def _dup_class(doc):
    doc["classes"][1] = doc["classes"][0]
    return doc


# (id, document key, mutation, words the message must contain)
CORPUS = [
    ("foreign format", "linear3", lambda d: _set(d, "format", "sklearn-pickle"),
     ["format", "not a svmdesk model file"]),
    ("no format", "linear3", lambda d: _drop(d, "format"), ["not a svmdesk model file"]),
    ("future version", "linear3", lambda d: _set(d, "version", 4),
     ["version", "newer svmdesk", "update svmdesk"]),
    ("version text", "linear3", lambda d: _set(d, "version", "1"),
     ["version must be an integer"]),
    ("version zero", "linear3", lambda d: _set(d, "version", 0), ["version is 0"]),
    ("unknown key", "linear3", lambda d: _set(d, "extra", 1), ["extra", "not a field"]),
    ("params not object", "linear3", lambda d: _set(d, "params", [1]),
     ["params must be an object"]),
    ("params.C text", "linear3", lambda d: _set(d, "params.C", "big"),
     ["params.C must be a number"]),
    ("params.C negative", "linear3", lambda d: _set(d, "params.C", -1),
     ["params are not valid", "C must be"]),
    ("params.C NaN", "linear3", lambda d: _set(d, "params.C", math.nan),
     ["params.C must be a finite number"]),
    ("params.solver", "linear3", lambda d: _set(d, "params.solver", "newton"),
     ["params.solver must be one of"]),
    ("params.kernel type", "linear3", lambda d: _set(d, "params.kernel", ["rbf"]),
     ["params.kernel must be a string"]),
    ("params.standardize", "linear3", lambda d: _set(d, "params.standardize", "yes"),
     ["params.standardize must be true or false"]),
    ("params.degree float", "linear3", lambda d: _set(d, "params.degree", 3.0),
     ["params.degree must be an integer"]),
    ("params unknown", "linear3", lambda d: _set(d, "params.shrinking", True),
     ["params.shrinking", "not a field"]),
    ("kernel unknown", "linear3", lambda d: _set(d, "kernel.name", "gauss"),
     ["kernel.name must be one of"]),
    ("gamma zero", "linear3", lambda d: _set(d, "kernel.gamma", 0.0),
     ["kernel.gamma must be positive"]),
    ("gamma negative", "rbf2", lambda d: _set(d, "kernel.gamma", -0.5),
     ["kernel.gamma must be positive"]),
    ("gamma NaN", "rbf2", lambda d: _set(d, "kernel.gamma", math.nan),
     ["kernel.gamma must be a finite number"]),
    ("gamma inf", "rbf2", lambda d: _set(d, "kernel.gamma", math.inf),
     ["kernel.gamma must be a finite number"]),
    ("gamma bool", "rbf2", lambda d: _set(d, "kernel.gamma", True),
     ["kernel.gamma must be a number"]),
    ("degree float", "rbf2", lambda d: _set(d, "kernel.degree", 2.5),
     ["kernel.degree must be an integer"]),
    ("degree zero", "rbf2", lambda d: _set(d, "kernel.degree", 0),
     ["kernel.degree must be at least 1"]),
    ("coef0 text", "rbf2", lambda d: _set(d, "kernel.coef0", "0"),
     ["kernel.coef0 must be a number"]),
    ("one class", "linear3", lambda d: _set(d, "classes", [0]), ["classes", "at least two"]),
    ("class list", "linear3", lambda d: _set(d, "classes.2", [2]),
     ["classes[2] must be a number or a string"]),
    ("class dtype", "linear3", lambda d: _set(d, "classes_dtype", "datetime64"),
     ["classes_dtype must be a numpy dtype"]),
    ("class type", "linear3", lambda d: _set(d, "classes.1", "one"),
     ["classes[1]", "does not fit classes_dtype"]),
    ("class duplicate", "linear3", _dup_class, ["classes", "twice"]),
    ("class order", "linear3", _unsorted_classes, ["classes must be in sorted order"]),
    ("machines count", "linear3", _drop_machine,
     ["machines has 2 machine(s) but 3 classes need 3"]),
    ("machine not object", "linear3", lambda d: _set(d, "machines.1", [0]),
     ["machines[1] must be an object"]),
    ("machine pair", "linear3", _swap_pair, ["machines[1] pairs classes", "must pair"]),
    ("machine class out of range", "linear3", lambda d: _set(d, "machines.1.positive", 5),
     ["machines[1].positive must be at most 2"]),
    ("coef length", "linear3", _shorten_coef,
     ["machines[1].dual_coef has {n1m} values but {n1} support vectors"]),
    ("sv rows", "linear3", _shorten_sv,
     ["machines[1].support_vectors has {n1m} rows but {n1} support indices"]),
    ("sv features", "linear3", _three_features,
     ["machines[0].support_vectors[0] has 3 features but 2 are needed"]),
    ("coef inf", "linear3", lambda d: _set(d, "machines.1.dual_coef.0", math.inf),
     ["machines[1].dual_coef[0] must be a finite number"]),
    ("coef text", "linear3", lambda d: _set(d, "machines.1.dual_coef.0", "0.5"),
     ["machines[1].dual_coef[0] must be a number"]),
    ("bias NaN", "linear3", lambda d: _set(d, "machines.0.bias", math.nan),
     ["machines[0].bias must be a finite number"]),
    ("bias null", "linear3", lambda d: _set(d, "machines.0.bias", None),
     ["machines[0].bias must be a number; got null"]),
    ("support negative", "linear3", lambda d: _set(d, "machines.0.support.0", -1),
     ["machines[0].support[0] must be at least 0"]),
    ("support float", "linear3", lambda d: _set(d, "machines.0.support.0", 1.0),
     ["machines[0].support[0] must be an integer"]),
    ("support twice", "linear3", _duplicate_support, ["machines[0].support", "twice"]),
    ("w missing value", "linear3", lambda d: _set(d, "machines.2.w", None),
     ["machines[2].w is null"]),
    ("w length", "linear3", lambda d: _set(d, "machines.2.w", [1.0]),
     ["machines[2].w has 1 values (one per feature) but 2 are needed"]),
    ("w for rbf", "rbf2", lambda d: _set(d, "machines.0.w", [1.0, 2.0]),
     ["machines[0].w must be null"]),
    ("scaler zero", "linear3", lambda d: _set(d, "scaler.scale.1", 0.0),
     ["scaler.scale[1] must be positive"]),
    ("scaler length", "linear3", lambda d: _set(d, "scaler.mean", [0.0]),
     ["scaler.mean has 1 values"]),
    ("support count", "linear3", _miss_support_index, ["support.indices", "machines use"]),
    ("support order", "linear3", _shuffle_support, ["support.indices must be grouped"]),
    ("support split", "linear3", _wrong_split, ["not one of the machine's classes"]),
    ("support sum", "linear3", lambda d: _set(d, "support.n_support.0", 0),
     ["support.n_support adds up to"]),
    ("support vector moved", "linear3", _move_vector, ["does not match support.vectors"]),
    ("n_iter length", "linear3", lambda d: _set(d, "training.n_iter", [1]),
     ["training.n_iter has 1 values (one per machine) but 3 are needed"]),
    ("n_iter negative", "linear3", lambda d: _set(d, "training.n_iter.0", -3),
     ["training.n_iter[0] must be at least 0"]),
    ("objective text", "rbf2", lambda d: _set(d, "training.objective", "low"),
     ["training.objective must be a number, 'inf'"]),
    ("objective list", "linear3", lambda d: _set(d, "training.objective", 1.0),
     ["training.objective must be a list"]),
    ("converged", "linear3", lambda d: _set(d, "training.converged", 1),
     ["training.converged must be true or false"]),
    ("n_features", "linear3", lambda d: _set(d, "training.n_features", 3),
     ["training.feature_min has 2 values (one per feature) but 3 are needed"]),
    ("n_samples", "linear3", lambda d: _set(d, "training.n_samples", 20),
     ["refers to training point", "training.n_samples is 20"]),
    ("solver mismatch", "linear3", lambda d: _set(d, "training.solver", "pegasos"),
     ["training.solver is 'pegasos' but params.solver is 'smo'"]),
    ("probability not object", "linear3", lambda d: _set(d, "probability", [1, 2]),
     ["probability must be an object"]),
    ("probA short", "linear3", lambda d: _set(d, "probability", {"probA": [-1.0],
                                                                 "probB": [0.0, 0.1, 0.2]}),
     ["probability.probA"]),
    ("probB text", "linear3", lambda d: _set(d, "probability", {"probA": [-1.0, -2.0, -3.0],
                                                                "probB": [0.0, "x", 0.2]}),
     ["probability.probB[1] must be a number"]),
    ("probability in version 1", "linear3",
     lambda d: _set(_drop(_set(d, "version", 1), "kind"), "probability", None),
     ["probability", "not a field of this format version"]),
]
TOP_KEYS = [k for k in model_json.TOP_KEYS if k not in ("format", "probability")]
CORPUS += [("kind in version 2", "linear3", lambda d: _set(d, "version", 2),
            ["kind is not a field of this format version"]),
           ("unknown kind", "linear3", lambda d: _set(d, "kind", "c_svm"),
            ["kind must be one of"])]
CORPUS += [(f"missing {k}", "linear3", functools.partial(_drop, dotted=k), [f"{k} is missing"])
           for k in TOP_KEYS]
CORPUS += [(f"missing machines[1].{k}", "linear3",
            functools.partial(_drop, dotted=f"machines.1.{k}"), [f"machines[1].{k} is missing"])
           for k in model_json.MACHINE_KEYS]
CORPUS += [(f"missing {part}.{k}", "linear3", functools.partial(_drop, dotted=f"{part}.{k}"),
            [f"{part}.{k} is missing"])
           for part, keys in (("kernel", ("name", "gamma", "degree", "coef0")),
                              ("scaler", ("mean", "scale")),
                              ("support", ("indices", "n_support", "vectors")),
                              ("training", ("solver", "n_iter", "objective", "converged",
                                            "n_samples", "n_features")),
                              ("params", ("C", "solver", "random_state")))
           for k in keys]


@pytest.mark.parametrize("key,mutate,words", [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_damaged_model_raises_a_clear_dataerror(key, mutate, words, tmp_path):
    doc = _doc(key)
    n1 = len(doc["machines"][1]["support"]) if len(doc["machines"]) > 1 else 0
    path = _write(tmp_path, mutate(doc))
    with pytest.raises(DataError) as info:
        load_model(path)
    message = str(info.value)
    assert message.startswith("model.json")
    for w in words:
        assert w.format(n1=n1, n1m=n1 - 1) in message


def test_the_reference_documents_themselves_load(tmp_path):
    for key in ("linear3", "rbf2"):
        load_model(_write(tmp_path, _doc(key)))


@pytest.mark.parametrize("content,words", [
    (lambda text: text[: len(text) // 2], ["not valid JSON", "truncated"]),
    (lambda text: text[:-3], ["not valid JSON"]),
    (lambda text: "", ["empty"]),
    (lambda text: "   \n", ["empty"]),
    (lambda text: "x,y,label\n1,2,a\n", ["not valid JSON"]),
    (lambda text: "[1, 2, 3]", ["not a svmdesk model file", "not an object"]),
    (lambda text: '"svmdesk-model"', ["not a svmdesk model file"]),
    (lambda text: text.replace('"format"', '"format": 1, "format"', 1), ["twice"]),
    (lambda text: "[" * 200_000 + "]" * 200_000, ["nested too deeply"]),
])
def test_damaged_text_raises_a_clear_dataerror(content, words, tmp_path):
    text = json.dumps(_doc())
    path = tmp_path / "model.json"
    path.write_text(content(text), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_model(path)
    assert str(info.value).startswith("model.json")
    for w in words:
        assert w in str(info.value)


def test_binary_and_missing_files_raise_dataerror(tmp_path):
    path = tmp_path / "model.json"
    path.write_bytes(b"\x80\x81\xfe\xff" * 100)
    with pytest.raises(DataError, match="model.json is not a svmdesk model file .not UTF-8"):
        load_model(path)
    with pytest.raises(DataError, match="cannot open .*nothing.json"):
        load_model(tmp_path / "nothing.json")
    with pytest.raises(DataError, match="cannot"):
        load_model(tmp_path)   # a directory


def test_size_cap_is_checked_before_reading(tmp_path, monkeypatch):
    path = _write(tmp_path, _doc())
    monkeypatch.setattr(model_json_reading, "MAX_BYTES", 1000)
    opened = []
    monkeypatch.setattr("builtins.open", lambda *a, **k: opened.append(a) or 1 / 0)
    with pytest.raises(DataError, match=r"model.json is \d+ MB; svmdesk reads these files up to"):
        load_model(path)
    assert opened == []


# ----------------------------------------------------------------------------- LIBSVM export
@pytest.fixture(scope="module")
def svmutil():
    return pytest.importorskip("libsvm.svmutil")


def _parse_range(path):
    """svm-scale's range file: x / lower upper / index min max lines."""
    lines = path.read_text().split("\n")
    assert lines[0] == "x"
    lower, upper = map(float, lines[1].split())
    ranges = {}
    for line in lines[2:]:
        if line.strip():
            j, lo, hi = line.split()
            ranges[int(j)] = (float(lo), float(hi))
    return lower, upper, ranges


def _svm_scale(X, lower, upper, ranges):
    """What svm-scale -r does to each feature value."""
    out = np.zeros_like(X)
    for j in range(X.shape[1]):
        lo, hi = ranges[j + 1]
        x = X[:, j]
        out[:, j] = np.where(x == lo, lower, np.where(
            x == hi, upper, lower + (upper - lower) * (x - lo) / (hi - lo)))
    return out


def libsvm_predict(svmutil, svc, X, tmp_path, exporter=None):
    """Export, load with LIBSVM, predict every point; returns (labels, decision values)."""
    path = tmp_path / "model.libsvm"
    written = export_libsvm(exporter if exporter is not None else svc, path)
    assert written[0] == path
    if svc.standardize:
        assert written == [path, tmp_path / "model.libsvm.range"]
        X = _svm_scale(X, *_parse_range(written[1]))
    else:
        assert written == [path]
    model = svmutil.svm_load_model(str(path))
    assert model is not None
    x = [{j + 1: float(v) for j, v in enumerate(row)} for row in X]
    labels, _, values = svmutil.svm_predict([0] * len(x), x, model, "-q")
    return np.array(labels), np.array(values)


def _iris_binary():
    X, y = iris2()
    keep = y > 0
    return X[keep], y[keep].astype(int) * 3 + 1     # labels 4 and 7, overlapping classes


def _iris_three():
    X, y = iris2()
    return X, np.array([-5, 0, 12])[y.astype(int)]  # label order != class index order


CASES = [(f"{kernel}-{which}", which, dict(solver="smo", kernel=kernel))
         for kernel in ("linear", "poly", "rbf", "sigmoid") for which in ("binary", "three")]
CASES += [
    ("rbf-binary-standardized", "binary", dict(kernel="rbf", standardize=True, gamma=0.8)),
    ("rbf-three-standardized", "three", dict(kernel="rbf", standardize=True, C=4.0)),
    ("linear-three-standardized", "three", dict(kernel="linear", standardize=True)),
    ("poly-binary-standardized", "binary", dict(kernel="poly", standardize=True, coef0=1.0)),
    ("dual-gradient-linear-binary", "binary", dict(solver="dual-gradient", kernel="linear")),
    ("dual-gradient-linear-three", "three",
     dict(solver="dual-gradient", kernel="linear", standardize=True)),
    ("dual-gradient-rbf-three", "three", dict(solver="dual-gradient", kernel="rbf")),
    ("kernel-gradient-rbf-binary", "binary", dict(solver="kernel-gradient", kernel="rbf")),
    ("kernel-gradient-linear-three", "three",
     dict(solver="kernel-gradient", kernel="linear", standardize=True)),
]


@pytest.mark.parametrize("which,params", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_libsvm_predicts_our_labels_and_decision_values(which, params, svmutil, tmp_path):
    X, y = _iris_binary() if which == "binary" else _iris_three()
    params = dict(params)
    if params["kernel"] == "poly":
        params.setdefault("coef0", 0.5)
        params.setdefault("gamma", 0.3)
    if params["kernel"] == "sigmoid":   # a sigmoid that separates iris's classes somewhat
        params.update(gamma=0.01, coef0=-1.0, C=10.0)
    svc = fit(X, y, **params)
    labels, values = libsvm_predict(svmutil, svc, X, tmp_path)
    ours = svc.set_params(decision_function_shape="ovo").decision_function(X)   # per machine
    ours = ours[:, None] if ours.ndim == 1 else ours
    assert values.shape == ours.shape
    assert np.abs(values - ours).max() <= 1e-6 * max(1.0, np.abs(ours).max())
    assert np.array_equal(labels, svc.predict(X))
    # the cases are not trivial: both/all classes are predicted, on both sides of each machine
    assert len(np.unique(labels)) == len(svc.classes_)


def test_libsvm_file_layout(tmp_path):
    X, y = _iris_binary()
    svc = fit(X, y, kernel="rbf", gamma=0.5)
    (path,) = export_libsvm(svc, tmp_path / "m.model")
    head, sv = path.read_text().split("SV\n")
    fields = dict(line.split(" ", 1) for line in head.strip().split("\n"))
    assert fields["svm_type"] == "c_svc" and fields["kernel_type"] == "rbf"
    assert float(fields["gamma"]) == svc.gamma_ and "degree" not in fields
    assert fields["label"] == "7 4"                 # our positive class (classes_[1]) first
    assert fields["nr_sv"] == f"{svc.n_support_[1]} {svc.n_support_[0]}"
    assert float(fields["rho"]) == -svc.intercept_[0]
    rows = sv.strip().split("\n")
    assert len(rows) == int(fields["total_sv"]) == len(svc.support_)
    coefs = np.array([float(r.split()[0]) for r in rows])
    assert (coefs[: svc.n_support_[1]] > 0).all() and (coefs[svc.n_support_[1]:] < 0).all()
    assert rows[0].split()[1].startswith("1:")


def test_exporting_the_svmmodel_writes_the_same_file(tmp_path):
    for X, y in (_iris_binary(), _iris_three()):
        svc = fit(X, y, kernel="rbf")
        a = export_libsvm(svc, tmp_path / "a")[0].read_text()
        b = export_libsvm(svc.model_, tmp_path / "b")[0].read_text()
        assert a == b


def test_export_rejects_text_and_fractional_labels(tmp_path):
    X, y = blobs()
    for labels, words in ((np.array(["no", "yes"]), "numeric class labels"),
                          (np.array([0.5, 1.0]), "integers")):
        svc = relabelled(fit(X, y, kernel="linear"), labels)   # fit refuses 0.5 (continuous)
        with pytest.raises(DataError, match=words) as info:
            export_libsvm(svc, tmp_path / "m.model")
        assert "JSON model (.json)" in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_export_accepts_integral_float_labels(svmutil, tmp_path):
    X, y = blobs()
    svc = fit(X, np.array([-1.0, 1.0])[y], kernel="rbf")
    labels, _ = libsvm_predict(svmutil, svc, X, tmp_path)
    assert np.array_equal(labels, svc.predict(X))


@pytest.mark.parametrize("solver", ["pegasos", "primal-subgradient"])
def test_primal_solver_models_with_approximate_multipliers_are_refused(solver, tmp_path):
    X, y = _iris_binary()
    svc = fit(X, y, solver=solver, kernel="linear")
    with pytest.raises(DataError, match="multipliers are approximate.*solver='smo'"):
        export_libsvm(svc, tmp_path / "m.model")


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["smo", "dual-gradient"])
def test_dual_solver_linear_models_export_exactly(solver, svmutil, tmp_path):
    X, y = _iris_three()
    svc = fit(X, y, solver=solver, kernel="linear")
    _, values = libsvm_predict(svmutil, svc, X, tmp_path)
    ovo = svc.set_params(decision_function_shape="ovo").decision_function(X)
    assert np.abs(values - ovo).max() <= 1e-9


def test_range_file_reproduces_the_standardisation(tmp_path):
    X, y = iris2()
    X = X * [1000.0, 0.001] + [-7.0, 3.0]
    svc = fit(X, y, kernel="rbf", standardize=True)
    _, range_path = export_libsvm(svc, tmp_path / "m.model")
    scaled = _svm_scale(X, *_parse_range(range_path))
    # rounding of min = mean - scale: about eps * mean / scale (here mean / scale ~ 7000)
    assert np.abs(scaled - svc.model_.scaler.transform(X)).max() <= 1e-10


def test_export_of_an_unfitted_or_foreign_object_fails(tmp_path):
    with pytest.raises(AttributeError, match="not fitted"):
        export_libsvm(SVC(), tmp_path / "m.model")
    with pytest.raises(TypeError, match="or an SVMModel"):
        export_libsvm({"model": 1}, tmp_path / "m.model")


def test_feature_ranges_are_optional_but_must_come_in_valid_pairs(tmp_path):
    X, y = iris2()
    path = save_model(fit(X, y, kernel="linear"), tmp_path / "m.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    older = dict(doc, training={k: v for k, v in doc["training"].items()
                                if not k.startswith("feature_")})
    (tmp_path / "old.json").write_text(json.dumps(older), encoding="utf-8")
    assert load_model(tmp_path / "old.json").feature_min_ is None
    for training, words in (
            ({**doc["training"], "feature_max": None}, "feature_max must be a list"),
            ({k: v for k, v in doc["training"].items() if k != "feature_max"},
             "both feature_min and feature_max"),
            ({**doc["training"], "feature_min": [9.0, 9.0]}, "must not exceed feature_max")):
        (tmp_path / "bad.json").write_text(json.dumps(dict(doc, training=training)),
                                           encoding="utf-8")
        with pytest.raises(DataError, match=words):
            load_model(tmp_path / "bad.json")


@functools.lru_cache(maxsize=1)
def _iris_document() -> str:
    import tempfile
    from pathlib import Path
    X, y = iris2()
    with tempfile.TemporaryDirectory() as folder:
        path = save_model(fit(X, y, kernel="rbf", standardize=True), Path(folder) / "m.json")
        return path.read_text(encoding="utf-8")


@pytest.mark.slow
def test_any_value_in_any_model_field_is_loaded_or_refused_with_dataerror(tmp_path):
    """Property: whatever replaces a field (or a field of a machine), load_model either
    loads or raises DataError; nothing else escapes."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    doc = json.loads(_iris_document())
    fields = [("top", k) for k in doc] + [("machine", k) for k in doc["machines"][0]] + \
        [("training", k) for k in doc["training"]]

    @settings(max_examples=150, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
    @given(field=st.sampled_from(fields), value=json_values())
    def check(field, value):
        damaged = copy.deepcopy(doc)
        where, key = field
        target = {"top": damaged, "machine": damaged["machines"][0],
                  "training": damaged["training"]}[where]
        target[key] = value
        load_or_refuse(load_model, tmp_path / "fuzz.json", damaged)

    check()


def test_a_model_file_written_before_decision_function_shape_existed_loads_with_ovr(tmp_path):
    X, y = _iris_three()
    path = save_model(fit(X, y, kernel="rbf", decision_function_shape="ovo"), tmp_path / "m.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["params"]["decision_function_shape"] == "ovo"         # kept verbatim
    del doc["params"]["decision_function_shape"]                      # as older files are
    path.write_text(json.dumps(doc), encoding="utf-8")
    loaded = load_model(path)
    assert loaded.get_params()["decision_function_shape"] == "ovr"
    assert loaded.decision_function(X).shape == (len(X), 3)
