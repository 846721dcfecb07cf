"""svmdesk's estimators: the base every estimator stands on (base.py: parameters from the
catalog's table, scikit-learn's protocol, the checks of X), a classifier's labels
(labels.py), the one-vs-one machinery (one_vs_one.py), and SVC (svc.py)."""
from .base import TableEstimator
from .svc import SVC, Machine, Progress

__all__ = ["SVC", "Machine", "Progress", "TableEstimator"]
