"""`svmdesk predict`: a saved model's labels and decision values for a data file, as CSV."""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

from ..core import DataError, SVMModel
from ..core.estimators import TableEstimator
from ..formats import load_model
from ..formats.points import load_points
from ..i18n import N_, tr
from .common import EXIT_OK, command

PREDICT_HELP = N_("""\
Print the predictions of MODEL for the points of DATA as CSV on stdout: the feature
columns (with their names), then
  a classifier:  'label', the predicted class, then the decision values:
    two classes: one column 'decision', f(x); f(x) > 0 predicts the model's second
                 class (in sorted order), f(x) < 0 the first
    K classes:   one column per one-vs-one machine, 'decision_A_vs_B' for each pair of
                 classes A before B (in sorted order, as scikit-learn's 'ovo' shape);
                 a positive value is a vote for A; the label is the class with the most
                 votes (ties go to the earlier class, as in libsvm)
    and, for a model trained with --probability, 'probability_C' for each class C
    (LIBSVM's -b 1; its largest may disagree with the label near the boundary)
  a one-class model: 'label', +1 inside the learnt region (f(x) > 0) or -1 outside,
                 and 'decision', f(x)
  a regressor:   'value', f(x)

MODEL is an svmdesk JSON model (from 'svmdesk train --out FILE.json' or
svmdesk.formats.save_model).  LIBSVM .model files are refused: use libsvm's svm-predict
for them.

DATA holds the model's features in the same order, optionally followed by a label
column (ignored): a CSV file with exactly as many columns as the model has features has
no label column; with one more, the last is the label.  In a LIBSVM file features
missing at the end are 0.

{data_formats}

{exit_codes}

example:
  svmdesk predict moons.json new_points.csv > predictions.csv""")


def add_parser(commands) -> None:
    p = command(commands, "predict", N_("print a saved model's predictions for a data file "
                                        "as CSV"), PREDICT_HELP, run)
    p.add_argument("model", metavar="MODEL", help=tr("an svmdesk JSON model file"))
    p.add_argument("data", metavar="DATA",
                   help=tr("the points to classify (CSV or LIBSVM file; label column "
                           "optional)"))


def run(args) -> int:
    estimator = read_model(args.model)
    X, names = load_points(args.data, estimator.n_features_in_)
    columns, rows = predictions(estimator.model_, X)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([*names, *columns])
    for row, predicted in zip(X.tolist(), rows):
        writer.writerow([*row, *predicted])
    sys.stdout.flush()
    return EXIT_OK


def predictions(model: SVMModel, X: np.ndarray) -> tuple[list, list]:
    """(column names, one row per point): a regressor's value; else the label, the
    decision values (one per machine) and, for a model with probabilities, each class's."""
    if model.is_regressor:
        return ["value"], model.predict(X)[:, None].tolist()
    classes = [str(c) for c in model.classes.tolist()]
    values = model.decision_function(X)
    if values.ndim == 1:
        values, columns = values[:, None], ["decision"]
    else:
        columns = [f"decision_{classes[m.positive]}_vs_{classes[m.negative]}"
                   for m in model.machines]
    if model.has_probabilities:
        values = np.column_stack([values, model.predict_proba(X)])
        columns += [f"probability_{c}" for c in classes]
    return (["label", *columns],
            [[label, *v] for label, v in zip(model.predict(X).tolist(), values.tolist())])


def read_model(path) -> TableEstimator:
    """A fitted SVC from an svmdesk JSON model; a LIBSVM model file gets a clear error."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            head = f.read(64).lstrip()
    except FileNotFoundError:
        raise FileNotFoundError(tr("{path}: no such model file").format(path=path)) from None
    except IsADirectoryError:
        raise IsADirectoryError(tr("{path} is a folder, not a model file").format(
            path=path)) from None
    if head.startswith(b"svm_type"):
        raise DataError(tr("{name} is a LIBSVM model; svmdesk reads its own JSON models "
                           "(svmdesk train --out MODEL.json): use libsvm's svm-predict for "
                           "LIBSVM models").format(name=path.name))
    return load_model(path)
