"""Data scikit-learn's users know to be wrong is refused in one line, with scikit-learn's
words where they know them; data it accepts (sparse matrices) is used as it is meant."""
import subprocess
import sys

import numpy as np
import pytest

from svmdesk.core import SVC, DataError, make_dataset
from svmdesk.core.errors import NotFittedError


@pytest.fixture
def moons():
    d = make_dataset("moons", n=60, noise=0.2, seed=0)
    return np.asarray(d.X), np.asarray(d.y)


def test_a_continuous_target_is_refused_as_scikit_learn_says(moons):
    X, _ = moons
    y = np.random.default_rng(0).random(len(X))
    with pytest.raises(DataError, match="Unknown label type: continuous"):
        SVC().fit(X, y)
    assert SVC().fit(X, (y > 0.5).astype(float)).classes_.tolist() == [0.0, 1.0]


def test_complex_X_is_refused_not_cut_to_its_real_part(moons):
    X, y = moons
    with pytest.raises(DataError, match="Complex data not supported"):
        SVC().fit(X + 1j, y)
    fitted = SVC().fit(X, y)
    with pytest.raises(DataError, match="Complex data not supported"):
        fitted.predict(X + 1j)


def test_a_1d_X_is_refused_in_predict_as_scikit_learn_says(moons):
    X, y = moons
    fitted = SVC().fit(X, y)
    for call in (fitted.predict, fitted.decision_function):
        with pytest.raises(DataError, match="Expected 2D array, got 1D array instead"):
            call(X[0])


def test_predict_before_fit_is_both_a_valueerror_and_an_attributeerror(moons):
    X, _ = moons
    with pytest.raises(NotFittedError, match="not fitted yet") as info:
        SVC().predict(X)
    assert isinstance(info.value, ValueError) and isinstance(info.value, AttributeError)


def test_a_sparse_X_trains_and_predicts_as_the_dense_points_it_holds(moons):
    sparse = pytest.importorskip("scipy.sparse")
    X, y = moons
    dense = SVC(kernel="rbf", C=3.0).fit(X, y)
    from_sparse = SVC(kernel="rbf", C=3.0).fit(sparse.csr_matrix(X), y)
    np.testing.assert_allclose(from_sparse.decision_function(sparse.csr_matrix(X)),
                               dense.decision_function(X))


def test_decision_function_is_one_column_per_class_by_default_as_scikit_learn_gives():
    from sklearn.datasets import load_iris
    from sklearn.svm import SVC as LibSVC

    X, y = load_iris(return_X_y=True)
    ours = SVC(kernel="rbf", C=1.0, gamma=0.5, tol=1e-6).fit(X, y)
    theirs = LibSVC(kernel="rbf", C=1.0, gamma=0.5, tol=1e-6).fit(X, y)
    ovr = ours.decision_function(X)
    assert ovr.shape == (len(X), 3)
    np.testing.assert_array_equal(ovr.argmax(axis=1), ours.predict(X))
    np.testing.assert_allclose(ovr, theirs.decision_function(X), atol=1e-4)
    ours.set_params(decision_function_shape="ovo")
    theirs.set_params(decision_function_shape="ovo")
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-4)
    with pytest.raises(ValueError, match="decision_function_shape must be one of 'ovr' or"):
        ours.set_params(decision_function_shape="ova").decision_function(X)


@pytest.mark.parametrize("case, words", [
    ("no y", "requires y to be passed, but the target y is None"),
    ("one sample", "n_samples = 1"),
    ("no features", "0 feature(s) (shape=(5, 0)) while a minimum of 1 is required"),
    ("no samples", "0 sample(s) (shape=(0, 2)) while a minimum of 1 is required"),
    ("NaN", "Input X contains NaN"),
    ("infinity", "Input X contains infinity"),
    ("one class", "The number of classes has to be greater than one; got 1 class"),
    ("two label columns", "y should be a 1d array, got an array of shape (5, 2) instead"),
])
def test_unusable_training_data_is_refused_in_scikit_learns_words(case, words):
    X = np.arange(10.0).reshape(5, 2)
    y = [0, 1, 0, 1, 0]
    args = {"no y": (X, None), "one sample": (X[:1], [0]),
            "no features": (np.empty((5, 0)), y), "no samples": (X[:0], []),
            "NaN": (np.where(X == 3, np.nan, X), y), "infinity": (np.where(X == 3, -np.inf, X), y),
            "one class": (X, [1] * 5), "two label columns": (X, np.c_[y, y])}[case]
    with pytest.raises(DataError) as info:
        SVC().fit(*args)
    assert words in str(info.value)


def test_a_width_unlike_fits_and_a_1d_X_are_refused_in_scikit_learns_words(moons):
    X, y = moons
    fitted = SVC().fit(X, y)
    with pytest.raises(DataError, match="X has 3 features, but SVC is expecting 2 features"):
        fitted.predict(np.hstack([X, X[:, :1]]))
    with pytest.raises(DataError, match="Reshape your data"):
        fitted.predict(X[0])


def test_an_array_like_that_is_no_numpy_array_is_taken_as_its_points(moons):
    X, y = moons

    class Table:            # an array-like such as a data frame's values, no ndarray
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None, copy=None):
            return np.asarray(self.a, dtype=dtype)

        def __len__(self):
            return len(self.a)

        def __array_function__(self, func, types, args, kwargs):
            raise TypeError(f"a Table is no array: numpy's {func.__name__} must not see it")

    fitted = SVC().fit(Table(X), y)
    np.testing.assert_array_equal(fitted.predict(Table(X)), SVC().fit(X, y).predict(X))


def test_a_table_of_numbers_held_as_objects_trains_and_a_cell_that_is_no_number_is_named(moons):
    X, y = moons
    as_objects = X.astype(object)
    np.testing.assert_array_equal(SVC().fit(as_objects, y).predict(as_objects),
                                  SVC().fit(X, y).predict(X))
    as_objects[0, 0] = {"foo": "bar"}
    with pytest.raises(DataError, match="must be a string or a real number, not 'dict'") as info:
        SVC().fit(as_objects, y)
    assert isinstance(info.value, TypeError)         # as numpy's own conversion says it


def test_a_column_of_labels_is_taken_with_scikit_learns_warning(moons):
    from svmdesk.core.errors import DataConversionWarning

    X, y = moons
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        column = SVC().fit(X, y[:, None])
    np.testing.assert_array_equal(column.predict(X), SVC().fit(X, y).predict(X))
    with pytest.raises(DataError, match="one label per point"):
        SVC().fit(X, y[None, :])


def test_scikit_learns_own_classes_catch_our_errors_once_it_is_loaded(moons):
    from sklearn.exceptions import DataConversionWarning
    from sklearn.exceptions import NotFittedError as Theirs

    X, y = moons
    with pytest.raises(Theirs):
        SVC().predict(X)
    with pytest.warns(DataConversionWarning):
        SVC().fit(X, y[:, None])


def test_without_scikit_learn_loaded_the_errors_are_svmdesks_and_load_nothing():
    code = ("import sys\n"
            "from svmdesk.core import SVC, NotFittedError\n"
            "try:\n    SVC().predict([[0.0, 1.0]])\n"
            "except NotFittedError as e:\n    print(type(e) is NotFittedError)\n"
            "print('sklearn' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=30)
    assert out.stdout.split() == ["True", "False"]


def test_scikit_learn_is_told_what_svc_is_a_classifier_of_dense_or_sparse_points(moons):
    from sklearn.base import is_classifier
    from sklearn.utils import get_tags
    from sklearn.utils.validation import check_is_fitted

    tags = get_tags(SVC())
    assert is_classifier(SVC()) and tags.input_tags.sparse and tags.target_tags.required
    from sklearn.exceptions import NotFittedError as Theirs
    with pytest.raises(Theirs):
        check_is_fitted(SVC())
    check_is_fitted(SVC().fit(*moons))
