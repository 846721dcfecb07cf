"""svmdesk's solver core: numpy only, no Qt. Everything a script or the GUI trains with."""
from .catalog import MAX_CLASSES, SOLVERS, TABLE
from .datasets import GENERATORS, Dataset, class_labels, make_dataset
from .errors import Cancelled, ConvergenceWarning, DataError, DivergenceError, NotFittedError
from .estimators import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from .kernels import KERNELS, Kernel
from .model import SVMModel
from .solvers.base import Snapshot
from .validation import CVResult, FoldScore, cross_validate, fold_indices

__all__ = [
    "SVC", "NuSVC", "OneClassSVM", "SVR", "NuSVR", "DataError", "NotFittedError",
    "ConvergenceWarning", "DivergenceError", "Snapshot", "SVMModel",
    "Kernel", "KERNELS", "SOLVERS", "TABLE", "MAX_CLASSES", "Dataset", "GENERATORS",
    "make_dataset", "class_labels", "cross_validate", "fold_indices", "CVResult", "FoldScore",
    "Cancelled",
]
