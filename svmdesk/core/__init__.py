"""svmdesk's solver core: numpy only, no Qt. Everything a script or the GUI trains with."""
from .catalog import MAX_CLASSES, SOLVERS, TABLE
from .datasets import Dataset, class_labels
from .errors import (
    Cancelled,
    ConvergenceWarning,
    DataError,
    DivergenceError,
    NotFittedError,
    WorkerLost,
)
from .estimators import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from .kernels import KERNELS, Kernel
from .metrics import (
    ClassReport,
    accuracy,
    class_report,
    confusion_matrix,
    mae,
    mse,
    normalised_rows,
    r2,
)
from .model import SVMModel
from .model_selection.cross_validation import CVResult, FoldScore, cross_validate
from .model_selection.folds import fold_indices
from .model_selection.grid_cells import GridCell, GridResult
from .model_selection.grid_search import grid_search
from .point_generators import GENERATORS, make_dataset
from .ranking import (
    OneVsRest,
    average_precision,
    one_against_rest_at_threshold,
    one_vs_rest,
    precision_recall_curve,
    predict_at_threshold,
    roc_auc,
    roc_curve,
)
from .solvers.base import Snapshot

__all__ = [
    "SVC", "NuSVC", "OneClassSVM", "SVR", "NuSVR", "DataError", "NotFittedError",
    "ConvergenceWarning", "DivergenceError", "Snapshot", "SVMModel",
    "Kernel", "KERNELS", "SOLVERS", "TABLE", "MAX_CLASSES", "Dataset", "GENERATORS",
    "make_dataset", "class_labels",
    "confusion_matrix", "normalised_rows", "accuracy", "ClassReport", "class_report",
    "r2", "mse", "mae", "roc_curve", "roc_auc", "precision_recall_curve", "average_precision",
    "OneVsRest", "one_vs_rest", "predict_at_threshold", "one_against_rest_at_threshold",
    "cross_validate", "fold_indices", "CVResult", "FoldScore", "Cancelled", "WorkerLost",
    "grid_search", "GridResult", "GridCell",
]
