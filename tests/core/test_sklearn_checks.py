"""scikit-learn's own estimator checks, run on svmdesk's SVC for every solver: the exact ones
(SMO, the dual gradient ascent) as users make them; the approximate and stochastic ones on
small iteration budgets, so that each solver's checks take seconds (a budget spent warns,
which the checks allow). Only the checks scikit-learn expects its own SVC to fail are
expected to fail (conftest.SAMPLE_WEIGHT_FAILURES, with its reason)."""
import warnings

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmdesk.core import SVC

from .conftest import SAMPLE_WEIGHT_FAILURES

ESTIMATORS = [
    SVC(solver="smo"),
    SVC(solver="dual-gradient"),
    SVC(solver="kernel-gradient", max_iter=100),
    SVC(solver="primal-subgradient", kernel="linear", max_iter=100),
    SVC(solver="pegasos", kernel="linear", max_iter=200),
]

# the small budgets are spent, as they are meant to be; 275 checks take 10 s
pytestmark = [pytest.mark.filterwarnings("ignore::svmdesk.core.errors.ConvergenceWarning"),
              pytest.mark.slow]

# SVC is scikit-learn shaped without deriving from its BaseEstimator (svmdesk never imports
# scikit-learn), which scikit-learn notes with a warning that passing its checks makes moot.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Estimator SVC does not inherit", UserWarning)
    each_check = parametrize_with_checks(
        ESTIMATORS, expected_failed_checks=lambda estimator: SAMPLE_WEIGHT_FAILURES)


# Sparse input becomes dense in check_X before any solver sees it: one solver's sparse checks
# prove the path for all (each solver's took about a second: half of these checks' time).
SPARSE_CHECKS = ("check_estimator_sparse_array", "check_estimator_sparse_matrix",
                 "check_estimator_sparse_tag")


@each_check
def test_scikit_learns_estimator_checks_pass(estimator, check):
    name = getattr(check, "func", check).__name__
    if name in SPARSE_CHECKS and estimator.solver != "smo":
        pytest.skip("sparse input is made dense before the solver: SMO's checks cover it")
    check(estimator)
