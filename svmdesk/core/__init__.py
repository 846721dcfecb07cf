"""svmdesk's solver core: numpy only, no Qt. Everything a script or the GUI trains with."""
from .datasets import GENERATORS, Dataset, class_labels, make_dataset
from .errors import ConvergenceWarning, DataError, DivergenceError
from .estimator import SOLVERS, SVC
from .io import load_dataset, save_dataset
from .kernels import KERNELS, Kernel
from .model import SVMModel
from .model_io import export_libsvm, load_model
from .session import Session, load_session, save_session
from .solvers.base import Snapshot

__all__ = [
    "SVC", "DataError", "ConvergenceWarning", "DivergenceError", "Snapshot", "SVMModel",
    "Kernel", "KERNELS", "SOLVERS", "Dataset", "GENERATORS", "make_dataset", "class_labels",
    "load_model", "export_libsvm",
    "load_dataset", "save_dataset", "Session", "load_session", "save_session",
]
