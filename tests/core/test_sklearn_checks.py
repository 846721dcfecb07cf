"""scikit-learn's own estimator checks, run on svmdesk's SVC for the exact solvers (SMO and
the dual gradient ascent): every check passes (the stochastic and approximate solvers come
under #34's marks)."""
import warnings

from sklearn.utils.estimator_checks import parametrize_with_checks

from svmdesk.core import SVC

# SVC is scikit-learn shaped without deriving from its BaseEstimator (svmdesk never imports
# scikit-learn), which scikit-learn notes with a warning that passing its checks makes moot.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Estimator SVC does not inherit", UserWarning)
    each_check = parametrize_with_checks([SVC(solver="smo"), SVC(solver="dual-gradient")])


@each_check
def test_scikit_learns_estimator_checks_pass(estimator, check):
    check(estimator)
