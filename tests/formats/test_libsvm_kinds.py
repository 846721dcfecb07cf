"""The LIBSVM export of every kind of model svmdesk trains (#57): C-SVC, nu-SVC, the
one-class SVM, epsilon-SVR and nu-SVR. libsvm-official loads each file and must predict what
svmdesk predicts: the labels (classifiers, one-class +1/-1) and decision values, or a
regressor's values; the header holds the fields LIBSVM's svm_save_model writes for its
svm_type (no label or nr_sv lines for one machine)."""
import ctypes
import functools
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from svmdesk.core import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from svmdesk.formats import export_libsvm

from .test_model_files import _parse_range, _svm_scale, libsvm_predict, probe_points

svmutil = pytest.importorskip("libsvm.svmutil")


# ----------------------------------------------------------------------------- data
@functools.cache
def two_classes():
    """Two overlapping Gaussian blobs labelled -1 and +1."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal([0.0, 0.0], 1.0, (25, 2)), rng.normal([2.0, 1.5], 1.0, (25, 2))])
    return X, np.repeat([-1, 1], 25)


@functools.cache
def three_classes():
    """Three blobs whose labels' order is not their class index order's."""
    X, y = make_blobs(n_samples=60, centers=3, cluster_std=1.3, random_state=0)
    return X, np.array([7, -2, 3])[y]


@functools.cache
def noisy_sine():
    rng = np.random.default_rng(1)
    X = rng.uniform(-3.0, 3.0, (50, 2))
    return X, np.sin(X[:, 0]) + 0.5 * np.cos(X[:, 1]) + rng.normal(0.0, 0.1, 50)


@functools.cache
def one_blob():
    rng = np.random.default_rng(2)
    return rng.normal([1.0, -1.0], 0.8, (50, 2)), None


DATA = {"two": two_classes, "three": three_classes, "sine": noisy_sine, "blob": one_blob}

CASES = [
    ("c_svc", SVC, "two", dict(kernel="rbf", C=2.0)),
    ("c_svc", SVC, "two", dict(kernel="linear")),
    ("c_svc", SVC, "three", dict(kernel="rbf", gamma=0.5)),
    ("c_svc", SVC, "three", dict(kernel="linear")),
    ("nu_svc", NuSVC, "two", dict(kernel="rbf", nu=0.4)),
    ("nu_svc", NuSVC, "two", dict(kernel="linear", nu=0.3)),
    ("nu_svc", NuSVC, "three", dict(kernel="rbf", nu=0.3)),
    ("nu_svc", NuSVC, "three", dict(kernel="poly", degree=3, gamma=0.2, coef0=1.0, nu=0.3)),
    ("one_class", OneClassSVM, "blob", dict(kernel="rbf", nu=0.2, gamma=0.5)),
    ("one_class", OneClassSVM, "blob", dict(kernel="linear", nu=0.3)),
    ("epsilon_svr", SVR, "sine", dict(kernel="rbf", C=5.0, epsilon=0.1)),
    ("epsilon_svr", SVR, "sine", dict(kernel="linear", C=1.0, epsilon=0.2)),
    ("epsilon_svr", SVR, "sine", dict(kernel="poly", degree=2, gamma=0.5, coef0=1.0)),
    ("nu_svr", NuSVR, "sine", dict(kernel="rbf", C=5.0, nu=0.4)),
    ("nu_svr", NuSVR, "sine", dict(kernel="linear", nu=0.5)),
    # standardize=True: LIBSVM reads the inputs through the .range file
    ("c_svc", SVC, "three", dict(kernel="rbf", standardize=True)),
    ("nu_svc", NuSVC, "three", dict(kernel="linear", nu=0.3, standardize=True)),
    ("one_class", OneClassSVM, "blob", dict(kernel="rbf", nu=0.2, standardize=True)),
    ("epsilon_svr", SVR, "sine", dict(kernel="rbf", C=5.0, standardize=True)),
    ("nu_svr", NuSVR, "sine", dict(kernel="linear", nu=0.5, standardize=True)),
]


def _id(case):
    kind, _, data, params = case
    return "-".join([kind, params["kernel"], data] + ["std"] * params.get("standardize", False))


def fit(estimator, data, params):
    X, y = DATA[data]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return X, estimator(**params).fit(X) if y is None else estimator(**params).fit(X, y)


def header(path):
    head, _ = path.read_text().split("SV\n", 1)
    return dict(line.split(" ", 1) for line in head.strip().split("\n"))


def libsvm_values(est, X, tmp_path):
    """libsvm_predict (labels, decision values), also for a nu-SVC of three or more classes:
    libsvm-official's svm_predict sizes its buffer for one decision value when svm_type is
    NU_SVC (its list of one-value types names NU_SVC where NU_SVR is meant), and LIBSVM
    writes K(K-1)/2 values into it, past its end. So LIBSVM's svm_predict_values is called
    here with a buffer of the right size."""
    if not (est.model_.kind == "nu_svc" and len(est.classes_) > 2):
        return libsvm_predict(svmutil, est, X, tmp_path)
    from libsvm.svm import gen_svm_nodearray, libsvm

    path, *range_path = export_libsvm(est, tmp_path / "model.libsvm")
    if range_path:
        X = _svm_scale(X, *_parse_range(range_path[0]))
    model = svmutil.svm_load_model(str(path))
    k = model.get_nr_class()
    buffer = (ctypes.c_double * (k * (k - 1) // 2))()
    labels, values = [], []
    for row in X:
        xi, _ = gen_svm_nodearray({j + 1: float(v) for j, v in enumerate(row)})
        labels.append(libsvm.svm_predict_values(model, xi, buffer))
        values.append(buffer[:])
    return np.array(labels), np.array(values)


def close(a, b):
    return np.abs(a - b).max() <= 1e-9 * max(1.0, np.abs(b).max())


# ----------------------------------------------------------------------------- tests
@pytest.mark.parametrize("kind,estimator,data,params", CASES, ids=[_id(c) for c in CASES])
def test_libsvm_predicts_what_we_predict(kind, estimator, data, params, tmp_path):
    X, est = fit(estimator, data, params)
    assert est.model_.kind == kind
    points = probe_points(X)
    labels, values = libsvm_values(est, points, tmp_path)
    ours = est.predict(points)
    if kind in ("epsilon_svr", "nu_svr"):
        assert close(labels, ours)
        assert close(values[:, 0], ours)
    else:
        assert np.array_equal(labels, ours)
        if kind in ("c_svc", "nu_svc"):
            est.set_params(decision_function_shape="ovo")
        f = est.decision_function(points)
        assert close(values, f[:, None] if f.ndim == 1 else f)
        # not trivial: every class (inliers and outliers) is predicted
        assert len(np.unique(labels)) == (2 if kind == "one_class" else len(est.classes_))


HEADER_CASES = CASES[:15:2]      # each kind; rbf, linear and poly kernels
ONE_MACHINE = [c for c in CASES if c[0] in ("one_class", "epsilon_svr", "nu_svr")]


@pytest.mark.parametrize("kind,estimator,data,params", HEADER_CASES,
                         ids=[_id(c) for c in HEADER_CASES])
def test_the_header_is_libsvms_for_the_kind(kind, estimator, data, params, tmp_path):
    _, est = fit(estimator, data, params)
    (path,) = export_libsvm(est, tmp_path / "m.model")
    fields = header(path)
    assert fields["svm_type"] == kind
    one_machine = kind in ("one_class", "epsilon_svr", "nu_svr")
    expected = ["svm_type", "kernel_type", "gamma", "nr_class", "total_sv", "rho"]
    if params["kernel"] == "linear":
        expected.remove("gamma")
    if params["kernel"] == "poly":
        expected[2:2] = ["degree"]
        expected[4:4] = ["coef0"]
    if not one_machine:
        expected += ["label", "nr_sv"]
    assert list(fields) == expected
    n_classes = 2 if one_machine else len(est.classes_)
    assert fields["nr_class"] == str(n_classes)
    rho = [float(r) for r in fields["rho"].split()]
    assert len(rho) == n_classes * (n_classes - 1) // 2
    rows = path.read_text().split("SV\n", 1)[1].strip().split("\n")
    assert len(rows) == int(fields["total_sv"]) == len(est.support_)
    coefs_per_row = {sum(":" not in t for t in row.split()) for row in rows}
    assert coefs_per_row == {n_classes - 1}
    if one_machine:
        assert rho == [-est.intercept_[0]]
        assert [float(r.split()[0]) for r in rows] == est.dual_coef_[0].tolist()


@pytest.mark.parametrize("kind,estimator,data,params", ONE_MACHINE[::2],
                         ids=[_id(c) for c in ONE_MACHINE[::2]])
def test_exporting_the_svmmodel_writes_the_same_file(kind, estimator, data, params, tmp_path):
    _, est = fit(estimator, data, params)
    a = export_libsvm(est, tmp_path / "a")[0].read_text()
    b = export_libsvm(est.model_, tmp_path / "b")[0].read_text()
    assert a == b


def test_an_unfitted_regressor_or_one_class_svm_is_refused(tmp_path):
    for estimator in (SVR(), NuSVR(), OneClassSVM()):
        with pytest.raises(AttributeError, match="not fitted"):
            export_libsvm(estimator, tmp_path / "m.model")
    assert list(tmp_path.iterdir()) == []
