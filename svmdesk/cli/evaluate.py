"""`svmdesk evaluate`: how a saved model does on a labelled data file: the confusion matrix,
accuracy, each class's precision, recall and F1, and the area under the ROC curve; for a
regressor R^2, MSE and MAE. With --plot, a picture too: the ROC and precision-recall
curves, or a regressor's residuals (Qt is imported then only, on the offscreen platform)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core import DataError, metrics, ranking
from ..core.datasets import Dataset
from ..core.estimators.one_vs_one import (
    duel_scores,
    vote_at_threshold,
    vote_without,
    votes_of,
)
from ..core.kinds import KINDS
from ..formats import load_dataset
from ..formats.label_matching import match_labels
from ..formats.points import require_features
from ..formats.targets import load_targets
from ..i18n import N_, tr
from .common import (
    EXIT_OK,
    add_picture_options,
    command,
    picture_path,
    save_plot,
)
from .predict import read_model
from .terminal_text import columns, labelled_lines, rjust

EVALUATE_HELP = N_("""\
Print how MODEL does on the labelled points of DATA:
  a classifier:  the confusion matrix (rows: the true class, columns: the predicted
                 one, with the class names), the accuracy, each class's precision,
                 recall, F1 and support with their macro and weighted averages, and
                 the ranking of the decision values: two classes 'AUC <value>' and
                 'AP <value>' (average precision) of the second class (in sorted order)
                 against the first; more classes one 'AUC <class> <value>' and
                 'AP <class> <value>' line per class, that class against the rest, ranked
                 by the weakest of its one-vs-one decision values (positive where it
                 wins every one of its duels)
  a one-class model: the same, its labels 1 (inlier) and -1 (outlier), which DATA's
                 label column must hold
  a regressor:   R^2, MSE (mean squared error) and MAE (mean absolute error); the
                 label column holds the targets

--threshold T moves the decision threshold from 0 to T without training again: two
classes: the second class where f(x) > T, else the first; more classes: --class C names
the class the threshold applies to: the class must win each of its one-vs-one duels by
more than T to be predicted, and elsewhere the others are predicted as the model votes
among themselves (at T = 0 exactly the model's own predictions).  The AUC does not
depend on the threshold.

--plot FILE writes a picture as well (FILE.png or FILE.svg, W pixels wide with
--width W): a classifier's or one-class model's ROC curve beside its precision-recall
curve (two classes: of the second class, the inlier for a one-class model; more: one
curve per class against the rest, in the canvas's class colours), the AUC and AP in
the legends, black dots where --threshold (with --class C) puts the decision; a
regressor's residuals, target - f(x) against f(x), with R^2 and MSE in the legend.

MODEL is an svmdesk JSON model; DATA holds the model's features in the same order,
then the label column.

{data_formats}

{exit_codes}

examples:
  svmdesk evaluate moons.json moons_test.csv
  svmdesk evaluate iris.json iris.csv --threshold 0.5 --class virginica
  svmdesk evaluate moons.json moons_test.csv --plot roc.png""")


def add_parser(commands) -> None:
    p = command(commands, "evaluate", N_("print a saved model's confusion matrix, accuracy, "
                                         "precision, recall, F1 and AUC (R^2 for a "
                                         "regressor) on labelled data"),
                EVALUATE_HELP, run)
    p.add_argument("model", metavar="MODEL", help=tr("an svmdesk JSON model file"))
    p.add_argument("data", metavar="DATA", help=tr("labelled points (CSV or LIBSVM file)"))
    p.add_argument("--threshold", type=float, default=None, metavar="T",
                   help=tr("the decision threshold on f(x) (default 0)"))
    p.add_argument("--class", dest="chosen", default=None, metavar="C",
                   help=tr("with more than two classes: the class --threshold applies to"))
    add_picture_options(p, tr("the ROC and precision-recall curves (a regressor: its "
                              "residuals)"))


def run(args) -> int:
    picture = picture_path(args.plot)     # refused before any work, and nothing printed
    estimator = read_model(args.model)
    model = estimator.model_
    if model.is_regressor:
        _refuse_threshold(args, tr("a regressor has no decision threshold"))
        z, f = _regression_points(estimator, args.data)
        print(_regression_report(z, f))
        if picture is not None:
            save_plot(picture, args.width, lambda: _residuals(z, f, args))
        return EXIT_OK
    names, truth, values, predicted = _classified(estimator, args)
    print(_classification_report(names, truth, values, predicted, len(model.classes)))
    if picture is not None:
        save_plot(picture, args.width,
                   lambda: _curves(names, truth, values, model, args))
    return EXIT_OK


def _curves(names: list, truth: np.ndarray, values: np.ndarray, model, args):
    """The ROC and PR figure of the data's points; their classes are indices into `names`,
    the model's first (a one-class model's (-1, 1): the inlier positive, as the window)."""
    from ..app.widgets.evaluation_pictures import curves_figure
    from ..drawing.evaluation import evaluation_of

    evaluation = evaluation_of(range(len(model.classes)), truth, values)
    assert evaluation is not None          # a data file holds points
    # two classes: --class was refused by _predicted; more: the class the dots belong to
    chosen = None if args.chosen is None else _class_index(args.chosen, model)
    return curves_figure(evaluation, names, args.threshold or 0.0, chosen, args.width,
                         titles=(Path(args.data).name, ""))


def _residuals(z: np.ndarray, f: np.ndarray, args):
    from ..app.widgets.evaluation_pictures import residuals_figure

    return residuals_figure(f, z, width=args.width, titles=(Path(args.data).name, ""))


def _regression_points(estimator, path) -> tuple[np.ndarray, np.ndarray]:
    """The targets of DATA and the model's predictions of them."""
    X, z, names = load_targets(path)
    X, _ = require_features(X, names, estimator.n_features_in_, Path(path), "label")
    return z, estimator.predict(X)


def _regression_report(z: np.ndarray, f: np.ndarray) -> str:
    return labelled_lines([(tr("points"), str(len(z))),
                           ("R^2", f"{metrics.r2(z, f):.6g}"),
                           ("MSE", f"{metrics.mse(z, f):.6g}"),
                           ("MAE", f"{metrics.mae(z, f):.6g}")], gap=2)


def _classified(estimator, args) -> tuple[list, np.ndarray, np.ndarray, np.ndarray]:
    """(class names, each point's true class index, decision values (more than two
    classes: the one-vs-one ones), predicted class index) of DATA's points: what the
    report and the picture are made of."""
    model = estimator.model_
    data = load_dataset(args.data)
    X, _ = require_features(data.X, data.feature_names, estimator.n_features_in_,
                            Path(args.data), "label")
    names, truth = _true_classes(data, model, Path(args.data).name)
    values = model.decision_function(X)
    return names, truth, values, _predicted(model, X, values, args, names)


def _classification_report(names: list, truth: np.ndarray, values: np.ndarray,
                           predicted: np.ndarray, n_model: int) -> str:
    labels = np.arange(len(names))
    report = metrics.class_report(truth, predicted, labels=labels)
    lines = _matrix_lines(metrics.confusion_matrix(truth, predicted, labels=labels), names)
    lines.append(tr("accuracy: {accuracy} ({right} of {n})").format(
        accuracy=f"{report.accuracy:.4f}", right=int(np.sum(truth == predicted)),
        n=len(truth)))
    lines += _per_class_lines(report, names)
    lines += _ranking_lines(truth, values, names, n_model)
    return "\n".join(lines)


def _true_classes(data: Dataset, model, name: str) -> tuple[list, np.ndarray]:
    """(class names, each point's true class as an index into them): the model's classes,
    in its order. A label the model does not know is refused: it was scored as always
    wrong, an accuracy of 0 for a file of another model's labels."""
    names = [str(c) for c in model.classes.tolist()]
    of_class = match_labels(data.class_names, model.classes)
    used = np.zeros(len(data.class_names), dtype=bool)
    used[np.unique(np.asarray(data.y, dtype=np.intp))] = True
    strangers = [str(data.class_names[k]) for k in np.flatnonzero((of_class < 0) & used)]
    if strangers and KINDS[model.kind].novelty:
        raise DataError(tr("{name}: a one-class model is evaluated on the labels 1 (inlier) "
                           "and -1 (outlier); the data has the class {label!r}").format(
                               name=name, label=strangers[0]))
    if strangers:
        raise DataError(tr("{name}: the model does not know the labels {labels}; it knows "
                           "{known}").format(name=name, labels=", ".join(map(repr, strangers)),
                                             known=", ".join(map(repr, names))))
    return names, of_class[np.asarray(data.y)]


def _scores(values: np.ndarray, n_classes: int) -> np.ndarray:
    """What ranks the points: f(x) of a two-class model, (n,); each class's duel score
    for more, (n, K), from the one-vs-one values."""
    return values if values.ndim == 1 else duel_scores(values, n_classes)


def _predicted(model, X, values: np.ndarray, args, names: list) -> np.ndarray:
    """Each point's predicted class index: the model's own, or at --threshold (for more
    than two classes the rule of one_vs_one.vote_at_threshold, as the window's)."""
    if args.threshold is None:
        _refuse_class_alone(args)
        return np.asarray(model.predict_indices(X))
    if values.ndim == 1:
        if args.chosen is not None:
            raise ValueError(tr("--class is for models of more than two classes; with two, "
                                "--threshold applies to f(x) of the second class"))
        return ranking.predict_at_threshold(values, args.threshold, 0, 1)
    if args.chosen is None:
        known = ", ".join(names[:len(model.classes)])
        raise ValueError(tr("--threshold with {k} classes needs --class C, the class it "
                            "applies to (one of {known})").format(k=len(model.classes),
                                                                  known=known))
    chosen, n_classes = _class_index(args.chosen, model), len(model.classes)
    return vote_at_threshold(_scores(values, n_classes)[:, chosen], votes_of(values, n_classes),
                             vote_without(values, n_classes)[:, chosen], chosen,
                             args.threshold)


def _class_index(name: str, model) -> int:
    index = int(match_labels([name], model.classes)[0])
    if index < 0:
        raise ValueError(tr("--class {name}: the model's classes are {classes}").format(
            name=name, classes=", ".join(str(c) for c in model.classes.tolist())))
    return index


def _refuse_threshold(args, why: str) -> None:
    if args.threshold is not None or args.chosen is not None:
        raise ValueError(tr("--threshold and --class: {why}").format(why=why))


def _refuse_class_alone(args) -> None:
    if args.chosen is not None:
        raise ValueError(tr("--class names the class --threshold applies to; give "
                            "--threshold too"))


def _matrix_lines(matrix: np.ndarray, names: list) -> list:
    """The confusion matrix with the class names on its rows and columns."""
    width = max(max(columns(n) for n in names), len(str(int(matrix.max(initial=0)))), 4)
    head = " " * (width + 2) + "  ".join(rjust(n, width) for n in names)
    rows = [rjust(n, width) + "  " + "  ".join(f"{int(v):>{width}}" for v in row)
            for n, row in zip(names, matrix)]
    return [tr("confusion matrix (rows: true class, columns: predicted class):"), head, *rows]


def _per_class_lines(report, names: list) -> list:
    averages = ((tr("macro avg"), report.macro), (tr("weighted avg"), report.weighted))
    width = max(columns(n) for n in [*names, *(name for name, _ in averages)])
    headings = [tr("precision"), tr("recall"), "f1", tr("support")]
    sizes = [max(columns(h), size) for h, size in zip(headings, (9, 6, 5, 7))]

    def row(name: str, numbers: tuple) -> str:
        return "  ".join([rjust(name, width), *(rjust(n, size) for n, size in
                                                zip(numbers, sizes))])

    rows = [row(names[k], (f"{p:.4f}", f"{r:.4f}", f"{f:.4f}", str(int(s))))
            for k, (p, r, f, s) in enumerate(zip(report.precision, report.recall,
                                                 report.f1, report.support))]
    total = str(int(np.sum(report.support)))
    rows += [row(name, (f"{mean.precision:.4f}", f"{mean.recall:.4f}", f"{mean.f1:.4f}",
                        total)) for name, mean in averages]
    return [row("", tuple(headings)), *rows]


def _ranking_lines(truth: np.ndarray, values: np.ndarray, names: list, n_model: int) -> list:
    """AUC and average precision: of the second class for two, else of each class against
    the rest by its duel score; a class the data lacks (or holds alone) has none, said as
    such."""
    scores = _scores(values, n_model)
    if scores.ndim == 1:
        return _ranked("", truth == 1, scores)
    lines = []
    for k in range(n_model):
        lines += _ranked(f" {names[k]}", truth == k, scores[:, k])
    return lines


def _ranked(label: str, positive: np.ndarray, scores: np.ndarray) -> list:
    if positive.all() or not positive.any():
        said = tr("undefined (the data holds one side only)")
        return [f"AUC{label} {said}", f"AP{label} {said}"]
    return [f"AUC{label} {ranking.roc_auc(positive, scores):.6g}",
            f"AP{label} {ranking.average_precision(positive, scores):.6g}"]
