"""svmdesk's errors cross process boundaries: a fit that fails in a worker process (a grid
search, joblib, a process pool) raises the same error in the parent, with and without
scikit-learn loaded (once it is, NotFittedError and DataConversionWarning are also
scikit-learn's classes of the same name)."""
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np
import pytest

from svmdesk.core import SVC, errors

ERRORS = [errors.DataError, errors.NotFittedError, errors.DataTypeError,
          errors.DivergenceError, errors.DataConversionWarning, errors.ConvergenceWarning]


def _round_trip(error):
    return pickle.loads(pickle.dumps(error))


@pytest.mark.parametrize("kind", ERRORS, ids=lambda kind: kind.__name__)
def test_every_error_survives_pickle_with_scikit_learn_loaded(kind):
    pytest.importorskip("sklearn.exceptions")
    error = errors.also_sklearns(kind)("the message, with 'quotes' and 陽性")
    back = _round_trip(error)
    assert type(back) is type(error)
    assert back.args == error.args and str(back) == str(error)


def test_every_error_survives_pickle_without_scikit_learn():
    """In a fresh process where scikit-learn is never loaded, each error is svmdesk's own
    class and round-trips as itself."""
    script = (
        "import pickle, sys\n"
        "from svmdesk.core import errors\n"
        f"for name in {[kind.__name__ for kind in ERRORS]!r}:\n"
        "    kind = errors.also_sklearns(getattr(errors, name))\n"
        "    assert kind is getattr(errors, name), kind\n"
        "    back = pickle.loads(pickle.dumps(kind('why', 2)))\n"
        "    assert type(back) is kind and back.args == ('why', 2), back\n"
        "assert 'sklearn' not in sys.modules\n"
        "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=10)
    assert done.stdout.strip() == "ok", done.stderr


def test_an_error_pickled_without_scikit_learn_is_scikit_learns_where_it_is_loaded():
    """A worker that never loaded scikit-learn raises svmdesk's NotFittedError; the parent,
    where scikit-learn's tools catch it by class, gets their class too."""
    exceptions = pytest.importorskip("sklearn.exceptions")
    script = ("import pickle, sys\n"
              "from svmdesk.core import errors\n"
              "sys.stdout.buffer.write(pickle.dumps(errors.not_fitted('fit first')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=10)
    back = pickle.loads(done.stdout)
    assert isinstance(back, exceptions.NotFittedError)
    assert isinstance(back, errors.NotFittedError) and back.args == ("fit first",)


def _predict_unfitted():
    SVC().predict(np.zeros((2, 2)))


def _fit_one_class():
    SVC().fit(np.zeros((3, 2)), [1, 1, 1])


def test_a_fit_failing_in_a_process_pool_raises_the_same_error_in_the_parent():
    """A fresh ("spawn") worker, as joblib's, loads no scikit-learn; its errors arrive as
    the parent's classes, scikit-learn's included."""
    exceptions = pytest.importorskip("sklearn.exceptions")
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        with pytest.raises(exceptions.NotFittedError) as unfitted:
            pool.submit(_predict_unfitted).result(timeout=10)
        with pytest.raises(errors.DataError, match="greater than one"):
            pool.submit(_fit_one_class).result(timeout=10)
    assert isinstance(unfitted.value, errors.NotFittedError)
