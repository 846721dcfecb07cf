"""svmdesk's files: data points (CSV, LIBSVM data), models (svmdesk's JSON, LIBSVM's text
format) and sessions. Readers check what they read and refuse a bad file with a DataError
that names it; writers replace a file whole or not at all."""
from .libsvm_model import export_libsvm
from .model_json import save_model
from .model_json_reading import load_model
from .points import load_dataset, load_points, save_dataset
from .session import Session, load_session, save_session

__all__ = ["load_dataset", "load_points", "save_dataset", "load_model", "save_model",
           "export_libsvm", "Session", "load_session", "save_session"]
