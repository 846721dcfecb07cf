"""`svmdesk evaluate`: how a saved model does on a labelled data file: the confusion matrix,
accuracy, each class's precision, recall and F1, and the area under the ROC curve; for a
regressor R^2, MSE and MAE."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core import DataError, metrics, ranking
from ..core.datasets import Dataset
from ..core.estimators.one_vs_one import ovr_decision
from ..formats import load_dataset
from ..formats.points import match_labels, require_features
from ..formats.targets import load_targets
from .common import DATA_FORMATS, EXIT_CODES, EXIT_OK, command
from .predict import read_model

EVALUATE_HELP = f"""\
Print how MODEL does on the labelled points of DATA:
  a classifier:  the confusion matrix (rows: the true class, columns: the predicted
                 one, with the class names), the accuracy, each class's precision,
                 recall, F1 and support with their macro and weighted averages, and
                 the ranking of the decision values: two classes 'AUC <value>' and
                 'AP <value>' (average precision) of the second class (in sorted order)
                 against the first; more classes one 'AUC <class> <value>' and
                 'AP <class> <value>' line per class, that class against the rest (its
                 column of the one-vs-rest decision values)
  a one-class model: the same, its labels 1 (inlier) and -1 (outlier), which DATA's
                 label column must hold
  a regressor:   R^2, MSE (mean squared error) and MAE (mean absolute error); the
                 label column holds the targets

--threshold T moves the decision threshold from 0 to T without training again: two
classes: the second class where f(x) > T, else the first; more classes: --class C names
the class whose one-vs-rest value must exceed T to predict it, the others are predicted
as the model would among themselves.  The AUC does not depend on the threshold.

MODEL is an svmdesk JSON model; DATA holds the model's features in the same order,
then the label column.

{DATA_FORMATS}

{EXIT_CODES}

examples:
  svmdesk evaluate moons.json moons_test.csv
  svmdesk evaluate iris.json iris.csv --threshold 0.5 --class virginica"""


def add_parser(commands) -> None:
    p = command(commands, "evaluate", "print a saved model's confusion matrix, accuracy, "
                 "precision, recall, F1 and AUC (R^2 for a regressor) on labelled data",
                 EVALUATE_HELP, run)
    p.add_argument("model", metavar="MODEL", help="an svmdesk JSON model file")
    p.add_argument("data", metavar="DATA", help="labelled points (CSV or LIBSVM file)")
    p.add_argument("--threshold", type=float, default=None, metavar="T",
                   help="the decision threshold on f(x) (default 0)")
    p.add_argument("--class", dest="chosen", default=None, metavar="C",
                   help="with more than two classes: the class --threshold applies to")


def run(args) -> int:
    estimator = read_model(args.model)
    model = estimator.model_
    if model.is_regressor:
        _refuse_threshold(args, "a regressor has no decision threshold")
        print(_regression_report(estimator, args.data))
        return EXIT_OK
    print(_classification_report(estimator, args))
    return EXIT_OK


def _regression_report(estimator, path) -> str:
    X, z, names = load_targets(path)
    X, _ = require_features(X, names, estimator.n_features_in_, Path(path), "label")
    f = estimator.predict(X)
    return "\n".join([f"points:  {len(z)}",
                      f"R^2:     {metrics.r2(z, f):.6g}",
                      f"MSE:     {metrics.mse(z, f):.6g}",
                      f"MAE:     {metrics.mae(z, f):.6g}"])


def _classification_report(estimator, args) -> str:
    model = estimator.model_
    data = load_dataset(args.data)
    X, _ = require_features(data.X, data.feature_names, estimator.n_features_in_,
                            Path(args.data), "label")
    names, truth = _true_classes(data, model, Path(args.data).name)
    scores = _scores(model, X)
    predicted = _predicted(model, X, scores, args, names)
    labels = np.arange(len(names))
    report = metrics.class_report(truth, predicted, labels=labels)
    lines = _matrix_lines(metrics.confusion_matrix(truth, predicted, labels=labels), names)
    lines.append(f"accuracy: {report.accuracy:.4f} ({int(np.sum(truth == predicted))} of "
                 f"{len(truth)})")
    lines += _per_class_lines(report, names)
    lines += _ranking_lines(truth, scores, names, len(model.classes))
    return "\n".join(lines)


def _true_classes(data: Dataset, model, name: str) -> tuple[list, np.ndarray]:
    """(class names, each point's true class as an index into them): the model's classes
    first (in its order), then any class of the data the model does not know."""
    names = [str(c) for c in model.classes.tolist()]
    of_class = match_labels(data.class_names, model.classes)
    if model.kind == "one_class" and (of_class < 0).any():
        stranger = data.class_names[int(np.flatnonzero(of_class < 0)[0])]
        raise DataError(f"{name}: a one-class model is evaluated on the labels 1 (inlier) and "
                        f"-1 (outlier); the data has the class {stranger!r}")
    for k in np.flatnonzero(of_class < 0):
        of_class[k] = len(names)
        names.append(str(data.class_names[k]))
    return names, of_class[np.asarray(data.y)]


def _scores(model, X: np.ndarray) -> np.ndarray:
    """f(x) of a two-class model, (n,); one-vs-rest values of more classes, (n, K)."""
    values = model.decision_function(X)
    return values if values.ndim == 1 else ovr_decision(values, len(model.classes))


def _predicted(model, X, scores: np.ndarray, args, names: list) -> np.ndarray:
    """Each point's predicted class index: the model's own, or at --threshold."""
    if args.threshold is None:
        _refuse_class_alone(args)
        return np.asarray(model.predict_indices(X))
    if scores.ndim == 1:
        if args.chosen is not None:
            raise ValueError("--class is for models of more than two classes; with two, "
                             "--threshold applies to f(x) of the second class")
        return ranking.predict_at_threshold(scores, args.threshold, 0, 1)
    if args.chosen is None:
        known = ", ".join(names[:len(model.classes)])
        raise ValueError(f"--threshold with {len(model.classes)} classes needs --class C, "
                         f"the class it applies to (one of {known})")
    chosen = _class_index(args.chosen, model)
    others = np.delete(np.arange(scores.shape[1]), chosen)
    best_other = others[np.argmax(scores[:, others], axis=1)]
    return ranking.one_against_rest_at_threshold(scores[:, chosen], args.threshold, chosen,
                                                 best_other)


def _class_index(name: str, model) -> int:
    index = int(match_labels([name], model.classes)[0])
    if index < 0:
        raise ValueError(f"--class {name}: the model's classes are "
                         f"{', '.join(str(c) for c in model.classes.tolist())}")
    return index


def _refuse_threshold(args, why: str) -> None:
    if args.threshold is not None or args.chosen is not None:
        raise ValueError(f"--threshold and --class: {why}")


def _refuse_class_alone(args) -> None:
    if args.chosen is not None:
        raise ValueError("--class names the class --threshold applies to; give --threshold "
                         "too")


def _matrix_lines(matrix: np.ndarray, names: list) -> list:
    """The confusion matrix with the class names on its rows and columns."""
    width = max(max(len(n) for n in names), len(str(int(matrix.max(initial=0)))), 4)
    head = " " * (width + 2) + "  ".join(f"{n:>{width}}" for n in names)
    rows = [f"{n:>{width}}  " + "  ".join(f"{int(v):>{width}}" for v in row)
            for n, row in zip(names, matrix)]
    return ["confusion matrix (rows: true class, columns: predicted class):", head, *rows]


def _per_class_lines(report, names: list) -> list:
    width = max(max(len(n) for n in names), len("weighted avg"))
    head = f"{'':<{width}}  precision  recall     f1  support"
    rows = [f"{names[k]:>{width}}  {p:9.4f}  {r:6.4f}  {f:5.4f}  {int(s):7d}"
            for k, (p, r, f, s) in enumerate(zip(report.precision, report.recall,
                                                 report.f1, report.support))]
    total = int(np.sum(report.support))
    for name, mean in (("macro avg", report.macro), ("weighted avg", report.weighted)):
        rows.append(f"{name:>{width}}  {mean.precision:9.4f}  {mean.recall:6.4f}  "
                    f"{mean.f1:5.4f}  {total:7d}")
    return [head, *rows]


def _ranking_lines(truth: np.ndarray, scores: np.ndarray, names: list, n_model: int) -> list:
    """AUC and average precision: of the second class for two, else of each class against
    the rest; a class the data lacks (or holds alone) has none, said as such."""
    if scores.ndim == 1:
        return _ranked("", truth == 1, scores)
    lines = []
    for k in range(n_model):
        lines += _ranked(f" {names[k]}", truth == k, scores[:, k])
    return lines


def _ranked(label: str, positive: np.ndarray, scores: np.ndarray) -> list:
    if positive.all() or not positive.any():
        said = "undefined (the data holds one side only)"
        return [f"AUC{label} {said}", f"AP{label} {said}"]
    return [f"AUC{label} {ranking.roc_auc(positive, scores):.6g}",
            f"AP{label} {ranking.average_precision(positive, scores):.6g}"]
