"""svmdesk's estimators: the base every estimator stands on (base.py: parameters from the
catalog's table, scikit-learn's protocol, the checks of X), a classifier's labels
(labels.py), its class and sample weights (weights.py), the one-vs-one machinery
(one_vs_one.py), SVC (svc.py), nu-SVC (nu_svc.py), the one-class SVM (one_class.py), and
epsilon- and nu-SVR (regression.py)."""
from .base import TableEstimator
from .nu_svc import NuSVC
from .one_class import OneClassSVM
from .regression import SVR, NuSVR
from .svc import SVC, Machine, Progress

__all__ = ["SVC", "NuSVC", "OneClassSVM", "SVR", "NuSVR", "Machine", "Progress", "TableEstimator"]
