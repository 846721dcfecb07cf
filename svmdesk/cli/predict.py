"""`svmdesk predict`: a saved model's labels and decision values for a data file, as CSV."""
from __future__ import annotations

import csv
import sys
from pathlib import Path

from ..core import SVC, DataError
from ..formats import load_model
from ..formats.points import load_points
from .common import DATA_FORMATS, EXIT_CODES, EXIT_OK, command

PREDICT_HELP = f"""\
Print the predictions of MODEL for the points of DATA as CSV on stdout: the feature
columns (with their names), then 'label', the predicted class, then the decision
values:
  two classes:   one column 'decision', f(x); f(x) > 0 predicts the model's second
                 class (in sorted order), f(x) < 0 the first
  K classes:     one column per one-vs-one machine, 'decision_A_vs_B' for each pair of
                 classes A before B (in sorted order, as scikit-learn's 'ovo' shape);
                 a positive value is a vote for A; the label is the class with the most
                 votes (ties go to the earlier class, as in libsvm)

MODEL is an svmdesk JSON model (from 'svmdesk train --out FILE.json' or
svmdesk.formats.save_model).  LIBSVM .model files are refused: use libsvm's svm-predict
for them.

DATA holds the model's features in the same order, optionally followed by a label
column (ignored): a CSV file with exactly as many columns as the model has features has
no label column; with one more, the last is the label.  In a LIBSVM file features
missing at the end are 0.

{DATA_FORMATS}

{EXIT_CODES}

example:
  svmdesk predict moons.json new_points.csv > predictions.csv"""


def add_parser(commands) -> None:
    p = command(commands, "predict", "print a saved model's predictions for a data file "
                 "as CSV", PREDICT_HELP, run)
    p.add_argument("model", metavar="MODEL", help="an svmdesk JSON model file")
    p.add_argument("data", metavar="DATA",
                   help="the points to classify (CSV or LIBSVM file; label column optional)")


def run(args) -> int:
    svc = read_model(args.model)
    X, names = load_points(args.data, svc.n_features_in_)
    labels = svc.predict(X)
    values = svc.set_params(decision_function_shape="ovo").decision_function(X)  # per machine
    classes = [str(c) for c in svc.classes_.tolist()]
    if values.ndim == 1:
        values, columns = values[:, None], ["decision"]
    else:
        columns = [f"decision_{classes[m.positive]}_vs_{classes[m.negative]}"
                   for m in svc.model_.machines]
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([*names, "label", *columns])
    for row, label, f in zip(X.tolist(), labels.tolist(), values.tolist()):
        writer.writerow([*row, label, *f])
    sys.stdout.flush()
    return EXIT_OK


def read_model(path) -> SVC:
    """A fitted SVC from an svmdesk JSON model; a LIBSVM model file gets a clear error."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            head = f.read(64).lstrip()
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such model file") from None
    except IsADirectoryError:
        raise IsADirectoryError(f"{path} is a folder, not a model file") from None
    if head.startswith(b"svm_type"):
        raise DataError(f"{path.name} is a LIBSVM model; svmdesk reads its own JSON models "
                        "(svmdesk train --out MODEL.json): use libsvm's svm-predict for "
                        "LIBSVM models")
    return load_model(path)
