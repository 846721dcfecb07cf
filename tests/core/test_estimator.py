"""Contract tests for svmdesk.core.SVC, the scikit-learn style front over the solvers.

The parameter names, fitted attributes and error types are a contract other tools call.
SMO-vs-libsvm numerics are covered in test_smo.py; here scikit-learn is only the oracle for
conventions (signs, shapes, orders, layouts) and for multi-class one-vs-one.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import re
import types
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris

from svmdesk.core import SVC, DataError, catalog, make_dataset
from svmdesk.core.errors import ConvergenceWarning

from .conftest import libsvm

SOLVER_NAMES = ("smo", "dual-gradient", "primal-subgradient", "kernel-gradient", "pegasos")
KERNEL_NAMES = ("linear", "poly", "rbf", "sigmoid")
FITTED = ("model_", "classes_", "support_", "support_vectors_", "dual_coef_", "intercept_",
          "n_iter_", "n_support_", "objective_", "converged_", "gamma_")



# ----------------------------------------------------------------------------- data


def _arrays(name, **kw):
    d = make_dataset(name, **kw)
    return np.asarray(d.X), np.asarray(d.y)


@functools.cache
def blobs_linear():
    """Two overlapping blobs, 200 points: a soft-margin linear problem every solver handles."""
    return _arrays("blobs", n=200, noise=1.5, seed=0)


@functools.cache
def blobs_separable():
    return _arrays("blobs", n=100, noise=0.6, seed=1)


@functools.cache
def blobs4():
    """Four classes, no duplicate points."""
    return _arrays("blobs", n=200, centers=4, seed=0)


@functools.cache
def iris2():
    """Iris on its first two features: three classes, with duplicate points."""
    X, y = load_iris(return_X_y=True)
    return np.ascontiguousarray(X[:, :2]), y


@functools.cache
def moons():
    return _arrays("moons", n=200, noise=0.2, seed=3)


@functools.cache
def smo_linear_reference():
    X, y = blobs_linear()
    return SVC(kernel="linear").fit(X, y)


def _small():
    """60 points, two classes: for validation tests that need some valid data."""
    return _arrays("blobs", n=60, seed=0)


def _fitted_attributes(model):
    return [name for name in FITTED if hasattr(model, name)]


# ----------------------------------------------------------------------------- construction


def test_import_surface_and_dataerror_is_a_valueerror():
    import svmdesk.core as core

    assert core.SVC is SVC and core.DataError is DataError
    assert issubclass(DataError, ValueError)


def test_signature_and_defaults_are_the_contract():
    expected = dict(solver="smo", kernel="rbf", C=1.0, gamma="scale", degree=3, coef0=0.0,
                    tol=1e-3, max_iter=None, max_time=None, learning_rate=None,
                    batch_size=None, standardize=False, random_state=None,
                    probability=False, class_weight=None, decision_function_shape="ovr")
    params = inspect.signature(SVC.__init__).parameters
    assert list(params)[1:] == list(expected)
    assert {k: p.default for k, p in list(params.items())[1:]} == expected
    assert SVC().get_params() == expected


BAD_VALUES = dict(solver="newton", kernel="gauss", C=-1, gamma="x", degree=1.5,
                  coef0=float("nan"), tol=0, max_iter=0, max_time=-1, learning_rate=-1,
                  batch_size=0,
                  standardize="yes", random_state=-1, probability="yes",
                  class_weight="heavy", decision_function_shape="ova")


def test_init_stores_parameters_verbatim_even_bad_ones():
    model = SVC(**BAD_VALUES)  # no error at construction
    params = model.get_params()
    assert set(params) == set(BAD_VALUES)
    for name, value in BAD_VALUES.items():
        assert getattr(model, name) is value
        assert params[name] is value
    assert _fitted_attributes(model) == []
    odd = object()
    assert SVC(C=odd).C is odd


def test_get_params_set_params_round_trip():
    model = SVC(kernel="linear", C=3.0, gamma=0.5, tol=1e-4, random_state=7)
    copy = SVC(**model.get_params())
    assert copy.get_params() == model.get_params()
    assert model.get_params(deep=False) == model.get_params()

    target = SVC()
    assert target.set_params(**model.get_params()) is target
    assert target.get_params() == model.get_params()
    assert target.set_params(C=None).C is None  # set_params stores, no validation either
    assert target.set_params(C=-5).C == -5

    with pytest.raises(ValueError, match="nonsense"):
        SVC().set_params(nonsense=1)


def test_sklearn_clone_round_trip():
    model = SVC(solver="pegasos", kernel="linear", C=2.0, random_state=3)
    copy = clone(model)
    assert copy is not model and type(copy) is SVC
    assert copy.get_params() == model.get_params()


def test_repr_shows_changed_parameters_and_evaluates_back():
    assert repr(SVC()) == "SVC()"
    model = SVC(kernel="linear", C=10.0)
    assert repr(model) == "SVC(kernel='linear', C=10.0)"
    for m in (model, SVC(solver="pegasos", kernel="linear", random_state=3, tol=1e-2),
              SVC(C=None, gamma="auto", standardize=True)):
        assert eval(repr(m), {"SVC": SVC}).get_params() == m.get_params()
    # bad values are shown too (construction never validates)
    assert "C=-1" in repr(SVC(C=-1))
    assert "C=nan" in repr(SVC(C=float("nan")))


@pytest.mark.parametrize("params", [dict(C=True), dict(standardize=0), dict(degree=3.0)])
def test_repr_shows_bad_values_that_compare_equal_to_defaults(params):
    (name, value), = params.items()
    assert f"{name}={value!r}" in repr(SVC(**params))


def test_repr_never_raises_even_for_array_parameters():
    text = repr(SVC(C=np.array([1.0, 2.0])))
    assert text.startswith("SVC(") and "C=" in text


# ----------------------------------------------------------------------------- bad parameters

BAD_PARAMS = [
    ("solver", "newton", list(SOLVER_NAMES)),
    ("solver", None, list(SOLVER_NAMES)),
    ("kernel", "gauss", list(KERNEL_NAMES)),
    ("C", 0, ["positive", "None"]),
    ("C", -1, ["positive", "None"]),
    ("C", float("nan"), ["positive", "None"]),
    ("C", "a", ["positive", "None"]),
    ("C", True, ["positive", "None"]),
    ("gamma", 0, ["scale", "auto", "positive"]),
    ("gamma", -1, ["scale", "auto", "positive"]),
    ("gamma", "x", ["scale", "auto", "positive"]),
    ("degree", 0, ["positive integer"]),
    ("degree", 1.5, ["positive integer"]),
    ("coef0", float("nan"), ["finite"]),
    ("tol", 0, ["positive"]),
    ("tol", -1, ["positive"]),
    ("max_iter", 0, ["positive integer", "None"]),
    ("max_iter", 1.5, ["positive integer", "None"]),
    ("max_time", 0, ["positive", "None"]),
    ("max_time", float("nan"), ["positive", "None"]),
    ("learning_rate", 0, ["positive", "None"]),
    ("learning_rate", -1, ["positive", "None"]),
    ("batch_size", 0, ["positive integer", "None"]),
    ("standardize", "yes", ["True", "False"]),
    ("random_state", -1, ["integer", "None"]),
    ("random_state", 1.5, ["integer", "None"]),
]


@pytest.fixture
def no_training(monkeypatch):
    """Every solver's solve() fails the test if it is reached."""
    calls = []

    def forbidden(problem, every=1):
        calls.append(problem)
        raise AssertionError("training started before the parameters were validated")

    for row in catalog.SOLVERS.values():
        monkeypatch.setattr(row.implementation(), "solve", forbidden)
    return calls


@pytest.mark.parametrize("name, value, allowed", BAD_PARAMS,
                         ids=[f"{n}={v!r}" for n, v, _ in BAD_PARAMS])
def test_bad_parameter_raises_valueerror_in_fit_naming_it_and_the_allowed_values(
        no_training, name, value, allowed):
    X, y = _small()
    model = SVC(**{name: value})  # construction accepts it
    with pytest.raises(ValueError) as info:
        model.fit(X, y)
    message = str(info.value)
    assert not isinstance(info.value, DataError), "a parameter error is not a data error"
    assert re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message), message
    for word in allowed:
        assert word in message, f"{word!r} missing from {message!r}"
    assert no_training == []
    assert _fitted_attributes(model) == []


@pytest.mark.parametrize("name, value", [(n, v) for n, v, _ in BAD_PARAMS[::3]])
def test_bad_parameter_raises_on_first_next_of_iter_fit(name, value):
    X, y = _small()
    stream = SVC(**{name: value}).iter_fit(X, y)  # a generator: nothing checked yet
    with pytest.raises(ValueError, match=re.escape(name)):
        next(stream)


@pytest.mark.parametrize("params", [
    dict(C=np.float32(2.0), gamma=np.float64(0.5), tol=np.float64(1e-3)),
    dict(C=5, degree=np.int64(2), kernel="poly", coef0=1),
    dict(max_iter=np.int64(100_000), random_state=np.int64(0), standardize=np.bool_(True)),
    dict(C=np.inf), dict(C=None, kernel="linear"), dict(gamma="auto"), dict(random_state=0),
])
def test_valid_parameter_spellings_are_accepted(params):
    X, y = blobs_separable()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = SVC(**params).fit(X, y)
    assert model.converged_
    assert model.get_params()[next(iter(params))] is params[next(iter(params))]


@pytest.mark.parametrize("solver, kernel", [("pegasos", "rbf"), ("primal-subgradient", "poly"),
                                            ("pegasos", "sigmoid")])
def test_solver_kernel_mismatch_raises_before_training_naming_both(no_training, solver, kernel):
    X, y = _small()
    model = SVC(solver=solver, kernel=kernel)
    with pytest.raises(ValueError) as info:
        model.fit(X, y)
    message = str(info.value)
    assert solver in message and kernel in message and "linear" in message
    assert no_training == []
    assert _fitted_attributes(model) == []


@pytest.mark.parametrize("solver", ["primal-subgradient", "pegasos", "kernel-gradient"])
def test_hard_margin_with_a_hinge_loss_solver_says_C_must_be_finite(solver):
    X, y = blobs_separable()
    model = SVC(solver=solver, kernel="linear", C=None)
    with pytest.raises(ValueError) as info:
        model.fit(X, y)
    assert solver in str(info.value) and re.search(r"\bC\b", str(info.value))
    assert _fitted_attributes(model) == []


@pytest.mark.parametrize("every", [0, -1, 1.5, True, "2"])
def test_bad_every_raises_valueerror_naming_it(every):
    X, y = _small()
    with pytest.raises(ValueError, match="every"):
        next(SVC().iter_fit(X, y, every=every))


# ----------------------------------------------------------------------------- bad data


def _data_cases():
    X, y = _small()
    nan, inf = X.copy(), X.copy()
    nan[3, 1] = np.nan
    inf[5, 0] = -np.inf
    return {
        "nan": (nan, y, ["NaN"]),
        "inf": (inf, y, ["infinite"]),
        "1-D X": (X[:, 0], y, ["2-D"]),
        "1-D X of wrong length": (X[:10, 0], y, ["2-D"]),
        "3-D X": (X[None], y, ["2-D"]),
        "text in X": ([["1.0", "a"], ["2", "3"]], [0, 1], ["numbers"]),
        "empty X": (np.empty((0, 2)), np.empty(0), ["0 sample(s)", "no points"]),
        "empty list": ([], [], ["X"]),
        "no features": (np.empty((4, 0)), [0, 1, 0, 1], ["0 feature(s)", "no feature"]),
        "y too short": (X, y[:-1], ["60", "59"]),
        "y too long": (X, np.r_[y, 0], ["60", "61"]),
        "y 2-D with 2 columns": (X, np.c_[y, y], ["y", "1-D"]),
        "one class": (X, np.zeros(len(X)), ["two classes"]),
        "one string class": (X, np.full(len(X), "cat"), ["two classes", "cat"]),
        "nan label": (X, np.where(y == 1, np.nan, 0.0), ["NaN"]),
    }


@pytest.mark.parametrize("case", list(_data_cases()))
def test_bad_training_data_raises_dataerror_with_a_readable_message(case):
    X, y, words = _data_cases()[case]
    model = SVC()
    with pytest.raises(DataError) as info:
        model.fit(X, y)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in message, f"{word!r} missing from {message!r}"
    assert "Traceback" not in message and len(message) < 300
    assert _fitted_attributes(model) == []
    with pytest.raises(DataError):  # iter_fit: on the first next()
        next(SVC().iter_fit(X, y))


def test_nan_message_locates_the_first_bad_cell():
    X, y = _small()
    X = X.copy()
    X[7, 1] = np.nan
    with pytest.raises(DataError, match=r"row 7, column 1"):
        SVC().fit(X, y)


def test_column_vector_y_is_accepted():
    X, y = _small()
    flat = SVC().fit(X, y)
    with pytest.warns(UserWarning, match="A column-vector y was passed"):
        column = SVC().fit(X, y[:, None])
    np.testing.assert_array_equal(column.predict(X), flat.predict(X))
    np.testing.assert_array_equal(column.classes_, flat.classes_)


@functools.cache
def _fitted_small():
    X, y = _small()
    return SVC().fit(X, y)


@pytest.mark.parametrize("method", ["predict", "decision_function"])
@pytest.mark.parametrize("X, words", [
    (np.zeros((3, 1)), ["1 features", "2"]),
    (np.zeros((3, 4)), ["4 features", "2"]),
    (np.zeros(3), ["2-D"]),
    (np.zeros((2, 3, 2)), ["2-D"]),
    (np.array([[0.0, np.nan]]), ["NaN"]),
    (np.array([[np.inf, 0.0]]), ["infinite"]),
    ([["x", "1"]], ["numbers"]),
    (np.empty((0, 2)), ["0 sample(s)"]),
])
def test_bad_prediction_data_raises_dataerror(method, X, words):
    model = _fitted_small()
    with pytest.raises(DataError) as info:
        getattr(model, method)(X)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_single_point_as_1d_vector_is_refused_as_scikit_learn_does():
    model = _fitted_small()
    X, _ = _small()
    with pytest.raises(DataError, match="Expected 2D array.*reshape"):
        model.predict(X[4])
    assert model.predict(X[4:5]).shape == (1,)


def test_score_with_mismatched_lengths_raises_dataerror():
    X, y = _small()
    with pytest.raises(DataError, match="match"):
        _fitted_small().score(X, y[:-1])


@pytest.mark.parametrize("call", ["predict", "decision_function", "score", "coef_"])
def test_using_an_unfitted_model_raises_attributeerror_mentioning_fit(call):
    X, y = _small()
    model = SVC(kernel="linear")
    with pytest.raises(AttributeError, match="fit"):
        if call == "coef_":
            _ = model.coef_
        elif call == "score":
            model.score(X, y)
        else:
            getattr(model, call)(X)
    assert not hasattr(model, "coef_")


# ----------------------------------------------------------------------------- labels


def test_string_labels_round_trip_and_match_the_integer_fit():
    X, y = moons()
    names = np.where(y == 1, "dog", "cat")
    ints = SVC().fit(X, y)
    strs = SVC().fit(X, names)
    np.testing.assert_array_equal(strs.classes_, ["cat", "dog"])
    np.testing.assert_array_equal(strs.classes_, libsvm(X, names).classes_)
    pred = strs.predict(X)
    assert pred.dtype.kind == "U" and set(pred) <= {"cat", "dog"}
    np.testing.assert_array_equal(pred, np.where(ints.predict(X) == 1, "dog", "cat"))
    np.testing.assert_allclose(strs.decision_function(X), ints.decision_function(X))
    assert strs.score(X, names) == ints.score(X, y)
    assert strs.score(X, list(names)) == ints.score(X, y)


def test_label_order_follows_sorting_not_appearance():
    X, y = moons()
    # the first point is a "zebra" but classes_ is sorted, as in sklearn
    labels = np.where(y == 0, "zebra", "ant")
    model = SVC().fit(X, labels)
    np.testing.assert_array_equal(model.classes_, ["ant", "zebra"])
    np.testing.assert_array_equal(model.classes_, libsvm(X, labels).classes_)
    f = model.decision_function(X)
    np.testing.assert_array_equal(model.predict(X) == "zebra", f > 0)


def test_negative_numpy_int_labels_keep_values_and_dtype():
    X, y = moons()
    labels = np.where(y == 1, -3, -7).astype(np.int16)
    model = SVC().fit(X, labels)
    np.testing.assert_array_equal(model.classes_, [-7, -3])
    assert model.classes_.dtype == np.int16
    pred = model.predict(X)
    assert pred.dtype == np.int16
    np.testing.assert_array_equal(pred, np.where(SVC().fit(X, y).predict(X) == 1, -3, -7))


def test_float_and_bool_labels_round_trip():
    X, y = moons()
    floats = SVC().fit(X, np.where(y == 1, 2.0, -1.0))
    np.testing.assert_array_equal(floats.classes_, [-1.0, 2.0])
    assert floats.predict(X).dtype == np.float64
    with pytest.raises(DataError, match="continuous"):    # 2.5 is a measurement, no class
        SVC().fit(X, np.where(y == 1, 2.5, -0.5))
    bools = SVC().fit(X, y.astype(bool))
    np.testing.assert_array_equal(bools.classes_, [False, True])
    assert bools.predict(X).dtype == np.bool_


@pytest.mark.parametrize("labels", [
    np.array(["2020-01-01", "2021-06-30"], dtype="datetime64[ns]"),
    np.array([1, 2], dtype="timedelta64[D]"),
    np.array([1 + 1j, 2j]),
], ids=["datetime64", "timedelta64", "complex"])
def test_other_numpy_label_dtypes_keep_their_dtype(labels):
    X, y = moons()
    model = SVC().fit(X, labels[y.astype(int)])
    assert model.classes_.dtype == labels.dtype
    np.testing.assert_array_equal(np.sort(model.classes_), np.sort(labels))
    pred = model.predict(X)
    assert pred.dtype == labels.dtype
    np.testing.assert_array_equal(pred, labels[SVC().fit(X, y).predict(X).astype(int)])


def test_mixed_type_object_labels_are_supported_and_returned_as_given():
    X, y = moons()
    labels = np.array([1 if v else "a" for v in y], dtype=object)
    model = SVC().fit(X, labels)
    assert len(model.classes_) == 2 and set(model.classes_.tolist()) == {1, "a"}
    pred = model.predict(X)
    assert pred.dtype == object
    assert {type(v) for v in pred} <= {int, str}
    assert all((v == 1) == (t == 1) for v, t in zip(pred, SVC().fit(X, y).predict(X)))
    # decision values still follow classes_[1]
    f = model.decision_function(X)
    np.testing.assert_array_equal(pred == model.classes_[1], f > 0)


def test_three_string_classes_in_any_order():
    X, y = blobs4()
    keep = y < 3
    X, y = X[keep], y[keep]
    names = np.array(["pear", "apple", "fig"])[y]
    ints = SVC().fit(X, y)
    strs = SVC().fit(X, names)
    np.testing.assert_array_equal(strs.classes_, ["apple", "fig", "pear"])
    # the integer classes 0, 1, 2 became pear, apple, fig: same machines, other order
    back = {"pear": 0, "apple": 1, "fig": 2}
    np.testing.assert_array_equal([back[p] for p in strs.predict(X)], ints.predict(X))
    ref = libsvm(X, names, decision_function_shape="ovo")
    np.testing.assert_array_equal(strs.predict(X), ref.predict(X))


# ----------------------------------------------------------------------------- binary layout


@functools.cache
def _moons_pair():
    X, y = moons()
    return SVC(tol=1e-5).fit(X, y), libsvm(X, y, tol=1e-5)


def test_binary_sign_convention_and_sklearn_decision_values():
    X, y = moons()
    model, ref = _moons_pair()
    f = model.decision_function(X)
    assert f.shape == (len(X),)
    np.testing.assert_array_equal(model.predict(X) == model.classes_[1], f > 0)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(f > 0).astype(int)])
    np.testing.assert_allclose(f, ref.decision_function(X), atol=1e-3)
    assert model.gamma_ == pytest.approx(ref._gamma, rel=1e-12)
    # at the default tol too
    default = SVC().fit(X, y)
    np.testing.assert_allclose(default.decision_function(X), libsvm(X, y).decision_function(X),
                               atol=1e-2)


def test_binary_fitted_attributes_have_sklearn_shapes_and_meanings():
    X, y = moons()
    model, ref = _moons_pair()
    n_sv = len(model.support_)
    assert model.classes_.tolist() == [0, 1]
    assert model.intercept_.shape == (1,)
    assert model.dual_coef_.shape == (1, n_sv)
    assert model.support_vectors_.shape == (n_sv, 2)
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert model.n_support_.shape == (2,) and model.n_support_.sum() == n_sv
    np.testing.assert_array_equal(model.n_support_, ref.n_support_)
    # support_ grouped by class, ascending within a class (as libsvm / sklearn)
    codes = y[model.support_]
    assert np.all(np.diff(codes) >= 0)
    for c in (0, 1):
        idx = model.support_[codes == c]
        assert np.all(np.diff(idx) > 0)
        assert len(idx) == model.n_support_[c]
    # dual_coef_ = y_i alpha_i with y = +1 for classes_[1], 0 < alpha <= C
    dc = model.dual_coef_[0]
    sign = np.where(y[model.support_] == 1, 1.0, -1.0)
    assert np.all(dc * sign > 0) and np.all(np.abs(dc) <= 1.0 + 1e-12)
    assert abs(dc.sum()) < 1e-8  # sum y_i alpha_i = 0
    # f(x) = sum dual_coef_ k(sv, x) + intercept_
    K = model.model_.kernel(X, model.support_vectors_)
    np.testing.assert_allclose(K @ dc + model.intercept_[0], model.decision_function(X),
                               atol=1e-10)
    assert model.n_iter_.shape == (1,) and model.n_iter_[0] > 0
    assert isinstance(model.objective_, float) and model.objective_ > 0
    assert model.converged_ is True
    assert model.n_features_in_ == 2
    assert isinstance(model.support_[0], np.integer)


def test_fit_returns_self_and_refit_replaces_everything():
    X2, y2 = moons()
    X3, y3 = iris2()
    model = SVC()
    assert model.fit(X3, y3) is model
    assert model.intercept_.shape == (3,)
    assert model.fit(X2, y2) is model
    assert model.intercept_.shape == (1,) and model.classes_.tolist() == [0, 1]
    assert model.dual_coef_.shape[0] == 1
    assert model.decision_function(X2).shape == (len(X2),)
    np.testing.assert_array_equal(model.predict(X2), SVC().fit(X2, y2).predict(X2))


def test_input_is_not_modified_and_lists_work():
    X, y = moons()
    X0, y0 = X.copy(), y.copy()
    model = SVC(standardize=True).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    from_lists = SVC(standardize=True).fit(X.tolist(), y.tolist())
    np.testing.assert_array_equal(from_lists.predict(X.tolist()), model.predict(X))


# ----------------------------------------------------------------------------- multi-class


def _ovo_from_attributes(model, X):
    """sklearn's "ovo" decision values rebuilt from support_vectors_, dual_coef_ and
    intercept_ alone, reading dual_coef_ in libsvm's layout."""
    K = len(model.classes_)
    start = np.r_[0, np.cumsum(model.n_support_)]
    kernel = model.model_.kernel(X, model.support_vectors_)
    out = []
    k = 0
    for i in range(K):
        for j in range(i + 1, K):
            si, sj = slice(start[i], start[i + 1]), slice(start[j], start[j + 1])
            f = (kernel[:, si] @ model.dual_coef_[j - 1, si]
                 + kernel[:, sj] @ model.dual_coef_[i, sj] + model.intercept_[k])
            out.append(f)
            k += 1
    return np.column_stack(out)


@pytest.mark.parametrize("name", ["iris", "blobs4"])
def test_multiclass_one_vs_one_matches_sklearn(name):
    X, y = iris2() if name == "iris" else blobs4()
    K = len(np.unique(y))
    n_machines = K * (K - 1) // 2
    model = SVC(decision_function_shape="ovo").fit(X, y)
    ref = libsvm(X, y, decision_function_shape="ovo")
    assert np.mean(model.predict(X) == ref.predict(X)) >= 0.995
    f = model.decision_function(X)
    assert f.shape == (len(X), n_machines)
    np.testing.assert_allclose(f, ref.decision_function(X), atol=1e-2)
    assert model.intercept_.shape == (n_machines,)
    np.testing.assert_allclose(model.intercept_, ref.intercept_, atol=1e-2)
    n_sv = len(model.support_)
    assert model.dual_coef_.shape == (K - 1, n_sv)
    assert model.n_support_.shape == (K,) and model.n_support_.sum() == n_sv
    np.testing.assert_array_equal(model.n_support_, ref.n_support_)
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert np.all(np.diff(y[model.support_]) >= 0)  # grouped by class
    assert model.n_iter_.shape == (n_machines,) and model.objective_.shape == (n_machines,)
    assert model.converged_ is True
    # the layout of dual_coef_ is libsvm's: f rebuilt from the public attributes
    np.testing.assert_allclose(_ovo_from_attributes(model, X), f, atol=1e-9)
    # predict is libsvm's vote over the ovo values (ties to the lower class)
    votes = np.zeros((len(X), K), dtype=int)
    pairs = [(i, j) for i in range(K) for j in range(i + 1, K)]
    for k, (i, j) in enumerate(pairs):
        np.add.at(votes, (np.arange(len(X)), np.where(f[:, k] > 0, i, j)), 1)
    np.testing.assert_array_equal(model.predict(X), model.classes_[votes.argmax(axis=1)])


def test_multiclass_support_and_dual_coef_equal_sklearn_at_tight_tol():
    X, y = blobs4()  # no duplicate points, so the support set is unique
    assert len(np.unique(X, axis=0)) == len(X)
    model = SVC(tol=1e-5).fit(X, y)
    ref = libsvm(X, y, tol=1e-5, decision_function_shape="ovo")
    np.testing.assert_array_equal(model.support_, ref.support_)
    np.testing.assert_allclose(model.dual_coef_, ref.dual_coef_, atol=1e-3)
    np.testing.assert_allclose(model.intercept_, ref.intercept_, atol=1e-4)


def test_multiclass_iris_support_vectors_equal_sklearn_up_to_duplicates():
    X, y = iris2()
    model = SVC(tol=1e-5).fit(X, y)
    ref = libsvm(X, y, tol=1e-5, decision_function_shape="ovo")
    assert len(model.support_) == len(ref.support_)
    np.testing.assert_array_equal(model.n_support_, ref.n_support_)
    # iris repeats points: libsvm and SMO may pick different copies of the same point
    ours = X[model.support_]
    theirs = X[ref.support_]
    np.testing.assert_array_equal(ours[np.lexsort(ours.T[::-1])],
                                  theirs[np.lexsort(theirs.T[::-1])])
    np.testing.assert_array_equal(y[model.support_], y[ref.support_])
    differing = set(model.support_) ^ set(ref.support_)
    for i in differing:  # every differing index is a duplicate of a shared support point
        assert (np.all(X == X[i], axis=1).sum()) > 1


# ----------------------------------------------------------------------------- coef_


def test_linear_coef_matches_sklearn_and_rebuilds_decision_function():
    X, y = blobs_linear()
    model = SVC(kernel="linear", tol=1e-5).fit(X, y)
    ref = libsvm(X, y, kernel="linear", tol=1e-5)
    assert model.coef_.shape == (1, 2)
    np.testing.assert_allclose(model.coef_, ref.coef_, atol=1e-3)
    np.testing.assert_allclose(model.intercept_, ref.intercept_, atol=1e-3)
    np.testing.assert_allclose(model.decision_function(X),
                               (X @ model.coef_.T + model.intercept_).ravel(), atol=1e-10)
    np.testing.assert_allclose(model.coef_, model.dual_coef_ @ model.support_vectors_,
                               atol=1e-10)


def test_linear_multiclass_coef_has_one_row_per_machine():
    X, y = blobs4()
    model = SVC(kernel="linear", tol=1e-5, decision_function_shape="ovo").fit(X, y)
    ref = libsvm(X, y, kernel="linear", tol=1e-5, decision_function_shape="ovo")
    assert model.coef_.shape == (6, 2)
    np.testing.assert_allclose(model.coef_, ref.coef_, atol=1e-3)
    np.testing.assert_allclose(model.decision_function(X), X @ model.coef_.T + model.intercept_,
                               atol=1e-10)


@pytest.mark.parametrize("kernel", ["rbf", "poly", "sigmoid"])
def test_coef_is_an_attributeerror_for_non_linear_kernels(kernel):
    X, y = _small()
    model = SVC(kernel=kernel).fit(X, y)
    with pytest.raises(AttributeError, match="linear"):
        _ = model.coef_
    assert not hasattr(model, "coef_")


def test_linear_coef_with_standardize_is_in_the_input_space():
    X, y = blobs_linear()
    X = X * np.array([100.0, 0.1]) + 3.0
    model = SVC(kernel="linear", standardize=True).fit(X, y)
    np.testing.assert_allclose(model.decision_function(X),
                               (X @ model.coef_.T + model.intercept_).ravel(), atol=1e-8)


# ----------------------------------------------------------------------------- standardize, gamma


def test_standardize_makes_predictions_invariant_to_feature_scale_and_shift():
    X, y = moons()
    base = SVC(standardize=True).fit(X, y)
    for scale, shift in ((1000.0, 5.0), (np.array([1000.0, 0.001]), np.array([-3.0, 7.0]))):
        Xt = X * scale + shift
        moved = SVC(standardize=True).fit(Xt, y)
        np.testing.assert_array_equal(moved.predict(Xt), base.predict(X))
        assert moved.objective_ == pytest.approx(base.objective_, rel=1e-8)
        np.testing.assert_array_equal(moved.support_, base.support_)
        np.testing.assert_allclose(moved.support_vectors_, Xt[moved.support_])  # raw units
        assert moved.gamma_ == pytest.approx(0.5)  # 'scale' on standardized data: 1/d


def test_gamma_scale_without_standardize_follows_a_uniform_rescaling():
    X, y = moons()
    base = SVC().fit(X, y)
    Xt = X * 1000.0 + 5.0
    moved = SVC().fit(Xt, y)
    assert base.gamma_ == pytest.approx(1.0 / (2 * X.var()), rel=1e-12)
    assert moved.gamma_ == pytest.approx(1.0 / (2 * Xt.var()), rel=1e-12)
    assert moved.gamma_ == pytest.approx(base.gamma_ * 1e-6, rel=1e-9)
    np.testing.assert_array_equal(moved.predict(Xt), base.predict(X))
    assert moved.objective_ == pytest.approx(base.objective_, rel=1e-6)


def test_gamma_auto_and_numbers():
    X, y = moons()
    X3 = np.c_[X, X[:, 0] * X[:, 1]]
    assert SVC(gamma="auto").fit(X3, y).gamma_ == pytest.approx(1 / 3)
    assert SVC(gamma="auto").fit(X, y).gamma_ == pytest.approx(1 / 2)
    assert SVC(gamma=0.25).fit(X, y).gamma_ == 0.25
    assert SVC(gamma="scale").fit(X3, y).gamma_ == pytest.approx(1 / (3 * X3.var()))
    ref = libsvm(X3, y, gamma="auto")
    ours = SVC(gamma="auto", tol=1e-5).fit(X3, y)
    np.testing.assert_allclose(ours.decision_function(X3), ref.decision_function(X3), atol=1e-2)


def test_standardize_handles_a_constant_feature():
    X, y = moons()
    Xc = np.c_[X, np.full(len(X), 4.0)]
    model = SVC(standardize=True).fit(Xc, y)
    assert model.converged_
    np.testing.assert_array_equal(model.predict(Xc), SVC(standardize=True).fit(X, y).predict(X))


# ----------------------------------------------------------------------------- iter_fit


def test_iter_fit_is_a_generator_that_validates_on_first_next():
    X, y = moons()
    stream = SVC().iter_fit(X[:, 0], y)  # bad data: nothing raised yet
    assert isinstance(stream, types.GeneratorType)
    with pytest.raises(DataError, match="2-D"):
        next(stream)
    stream = SVC(kernel="gauss").iter_fit(X, y)
    with pytest.raises(ValueError, match="kernel"):
        next(stream)


def test_iter_fit_snapshots_are_immutable_and_increasing_and_end_converged():
    X, y = moons()
    model = SVC()
    steps = list(model.iter_fit(X, y))
    snaps = [step.snapshot for step in steps]
    assert len(snaps) > 2
    iterations = [s.iteration for s in snaps]
    assert all(b > a for a, b in zip(iterations[:-1], iterations[1:-1]))
    assert iterations[-1] >= iterations[-2]
    assert snaps[-1].converged and not any(s.converged for s in snaps[:-1])
    for step in steps:
        m = step.machine
        assert (m.index, m.count, m.points) == (0, 1, None)
        assert tuple(m.classes) == (0, 1)  # (negative, positive)
        assert m.kernel.gamma == model.gamma_ and m.scaler is None
    assert {f.name for f in dataclasses.fields(snaps[0])}.isdisjoint(
        {"machine", "n_machines", "classes", "points", "kernel", "scaler"})  # solver state only
    last = snaps[-1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        last.iteration = 0
    with pytest.raises(ValueError):
        last.dual_coef[0] = 1.0
    with pytest.raises(ValueError):
        last.support[0] = 1
    assert last.dual_objective == model.objective_          # SMO: the dual
    assert last.iteration == model.n_iter_[0]


def test_fit_equals_exhausting_iter_fit():
    X, y = moons()
    fitted = SVC(C=3.0).fit(X, y)
    streamed = SVC(C=3.0)
    for _ in streamed.iter_fit(X, y, every=1):
        pass
    assert streamed.objective_ == pytest.approx(fitted.objective_, rel=1e-12, abs=1e-12)
    np.testing.assert_array_equal(streamed.predict(X), fitted.predict(X))
    np.testing.assert_array_equal(streamed.support_, fitted.support_)
    np.testing.assert_allclose(streamed.dual_coef_, fitted.dual_coef_, atol=1e-10)
    np.testing.assert_allclose(streamed.intercept_, fitted.intercept_, atol=1e-10)
    np.testing.assert_array_equal(streamed.n_iter_, fitted.n_iter_)
    assert streamed.converged_ == fitted.converged_


def test_abandoned_iter_fit_sets_no_fitted_attributes():
    X, y = moons()
    model = SVC()
    stream = model.iter_fit(X, y)
    next(stream)
    next(stream)
    assert _fitted_attributes(model) == []
    stream.close()
    del stream
    assert _fitted_attributes(model) == []
    with pytest.raises(AttributeError, match="fit"):
        model.predict(X)
    # the estimator is still usable afterwards
    assert model.fit(X, y).converged_


def test_multiclass_iter_fit_labels_each_machine():
    X, y = iris2()
    model = SVC()
    steps = list(model.iter_fit(X, y, every=5))
    machines = [step.machine.index for step in steps]
    assert machines == sorted(machines) and set(machines) == {0, 1, 2}
    pairs = [(0, 1), (0, 2), (1, 2)]
    for step in steps:
        m, s = step.machine, step.snapshot
        assert m.count == 3
        assert isinstance(m.classes, tuple) and len(m.classes) == 2
        i, j = pairs[m.index]
        assert set(m.classes) == {model.classes_[i], model.classes_[j]}
        np.testing.assert_array_equal(m.points, np.flatnonzero((y == i) | (y == j)))
        assert not m.points.flags.writeable
        assert s.support.max(initial=-1) < len(m.points)
    last = [[step for step in steps if step.machine.index == k][-1] for k in range(3)]
    finals = [step.snapshot for step in last]
    assert all(f.converged for f in finals)
    np.testing.assert_array_equal(model.n_iter_, [f.iteration for f in finals])
    np.testing.assert_allclose(model.objective_, [f.dual_objective for f in finals])
    np.testing.assert_allclose(model.intercept_, [f.bias for f in finals])
    # the support of each machine, mapped through points, lies in support_
    for step in last:
        assert set(step.machine.points[step.snapshot.support]) <= set(model.support_)


# ----------------------------------------------------------------------------- all solvers

SOLVER_SETTINGS = {
    "smo": {},
    "dual-gradient": {},
    "primal-subgradient": {},
    "kernel-gradient": {},
    # stochastic, but settles to the default tol: 1e-2 stopped 0.6% above the optimum, where
    # the flat objective leaves coef_ 0.14 from SMO's (#46's capped step starts more slowly)
    "pegasos": dict(random_state=0),
}


@pytest.mark.parametrize("solver", SOLVER_NAMES)
def test_every_solver_through_the_estimator_on_a_linear_problem(solver):
    X, y = blobs_linear()
    reference = smo_linear_reference()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = SVC(solver=solver, kernel="linear", C=1.0, **SOLVER_SETTINGS[solver]).fit(X, y)
    assert model.converged_ is True
    assert model.objective_ == pytest.approx(reference.objective_, rel=1e-2)
    assert np.mean(model.predict(X) == reference.predict(X)) >= 0.97
    assert model.coef_.shape == (1, 2)
    np.testing.assert_allclose(model.decision_function(X),
                               (X @ model.coef_.T + model.intercept_).ravel(), atol=1e-8)
    np.testing.assert_allclose(model.coef_, reference.coef_, atol=0.1)
    assert model.intercept_.shape == (1,)
    assert model.dual_coef_.shape == (1, len(model.support_))
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert model.n_support_.sum() == len(model.support_)


@pytest.mark.parametrize("solver", SOLVER_NAMES)
def test_fitted_model_reproduces_the_solvers_final_function(solver):
    """decision_function of the estimator is the f the solver ended with."""
    X, y = blobs_linear()
    model = SVC(solver=solver, kernel="linear", **SOLVER_SETTINGS[solver])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        final = list(model.iter_fit(X, y, every=10**9))[-1].snapshot
    if final.w is not None:
        f = X @ final.w + final.bias
    else:
        f = model.model_.kernel(X, X) @ final.dual_coef + final.bias
    np.testing.assert_allclose(model.decision_function(X), f, atol=1e-8)


@pytest.mark.parametrize("solver", ["dual-gradient", "kernel-gradient"])
def test_kernel_solvers_on_rbf_moons_match_smo(solver):
    X, y = moons()
    reference = SVC().fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = SVC(solver=solver).fit(X, y)
    assert model.converged_ is True
    assert model.objective_ == pytest.approx(reference.objective_, rel=1e-2)
    assert np.mean(model.predict(X) == reference.predict(X)) >= 0.97


def test_dual_gradient_multiclass_runs_one_vs_one():
    X, y = blobs4()
    model = SVC(solver="dual-gradient", kernel="linear", decision_function_shape="ovo").fit(X, y)
    reference = SVC(kernel="linear", decision_function_shape="ovo").fit(X, y)
    assert model.converged_ and model.decision_function(X).shape == (len(X), 6)
    np.testing.assert_allclose(model.objective_, reference.objective_, rtol=1e-2)
    assert np.mean(model.predict(X) == reference.predict(X)) >= 0.97


def test_pegasos_is_reproducible_with_random_state():
    X, y = blobs_linear()
    params = dict(solver="pegasos", kernel="linear", tol=1e-2)
    a = SVC(random_state=5, **params).fit(X, y)
    b = SVC(random_state=5, **params).fit(X, y)
    c = SVC(random_state=6, **params).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.n_iter_, b.n_iter_)
    assert a.objective_ == b.objective_
    assert not np.array_equal(a.coef_, c.coef_)  # the seed is actually used


# ----------------------------------------------------------------------------- hard margin


def test_hard_margin_on_separable_data_converges_and_inf_means_none():
    X, y = blobs_separable()
    fits = {}
    for C in (None, float("inf"), np.inf):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fits[repr(C)] = SVC(kernel="linear", C=C).fit(X, y)
    none = fits["None"]
    assert none.converged_ is True
    margins = np.where(y == 1, 1.0, -1.0) * none.decision_function(X)
    assert margins.min() >= 1 - 1e-3
    assert len(none.support_) >= 2
    for other in fits.values():
        assert other.objective_ == none.objective_
        np.testing.assert_array_equal(other.support_, none.support_)
        np.testing.assert_array_equal(other.coef_, none.coef_)
        np.testing.assert_array_equal(other.intercept_, none.intercept_)
    assert none.get_params()["C"] is None  # the parameter itself is not rewritten
    # the hard margin equals a huge C and is tighter than C=1
    assert none.objective_ == pytest.approx(SVC(kernel="linear", C=1e6).fit(X, y).objective_,
                                            rel=1e-4)
    dual = SVC(solver="dual-gradient", kernel="linear", C=None).fit(X, y)
    assert dual.converged_ and dual.objective_ == pytest.approx(none.objective_, rel=1e-3)


# ----------------------------------------------------------------------------- score


def test_score_is_accuracy():
    X, y = moons()
    model = SVC(C=0.1, gamma=0.1).fit(X[::2], y[::2])
    for Xs, ys in ((X[1::2], y[1::2]), (X, y)):
        acc = model.score(Xs, ys)
        assert isinstance(acc, float)
        assert acc == np.mean(model.predict(Xs) == ys)
    assert 0.5 < model.score(X[1::2], y[1::2]) < 1.0
    flipped = 1 - y[1::2]
    assert model.score(X[1::2], flipped) == pytest.approx(1 - model.score(X[1::2], y[1::2]))
    # one class in y is fine for scoring
    assert model.score(X[y == 0], y[y == 0]) == np.mean(model.predict(X[y == 0]) == 0)


def test_score_is_accuracy_for_three_classes():
    X, y = iris2()
    model = SVC().fit(X, y)
    assert model.score(X, y) == np.mean(model.predict(X) == y)
    assert model.score(X, y) == pytest.approx(
        libsvm(X, y).score(X, y), abs=1 / len(X) + 1e-12)


@pytest.mark.parametrize("labels", [None, ["b", "a", "c"]])
def test_a_fitted_svc_is_rebuilt_from_its_model_through_the_public_constructor(labels):
    """SVC.from_model (what the model files and relabelling use) gives back every fitted
    attribute fit set, bit for bit."""
    d = make_dataset("blobs", n=90, noise=1.5, seed=2)
    y = d.y % 3 if labels is None else np.array(labels)[d.y % 3]
    svc = SVC(kernel="rbf", C=3.0, standardize=True).fit(d.X, y)
    codes = np.searchsorted(svc.classes_, y)
    again = SVC.from_model(svc.model_, codes, np.arange(len(d.X)), d.X, n_iter=svc.n_iter_,
                           objective=svc.objective_, converged=svc.converged_,
                           n_features=2, n_samples=len(d.X), feature_min=svc.feature_min_,
                           feature_max=svc.feature_max_, **svc.get_params())
    for name in ("classes_", "support_", "n_support_", "support_vectors_", "dual_coef_",
                 "intercept_", "n_iter_", "objective_", "feature_min_", "feature_max_"):
        np.testing.assert_array_equal(getattr(again, name), getattr(svc, name), err_msg=name)
    assert again.get_params() == svc.get_params() and again.n_samples_fit_ == len(d.X)
    np.testing.assert_array_equal(again.decision_function(d.X), svc.decision_function(d.X))


def test_coef_is_read_only_as_scikit_learns():
    """An edit of coef_ raised nothing and changed nothing (each access computes it anew):
    scikit-learn's is read-only, and its own test_immutable_coef_property says so."""
    d = make_dataset("blobs", n=60, seed=0)
    model = SVC(kernel="linear").fit(d.X, d.y)
    with pytest.raises(ValueError, match="read-only"):
        model.coef_[0, 0] = 99.0
    with pytest.raises(ValueError, match="read-only"):
        model.coef_.__setitem__((0, 0), 0.0)
