"""The evaluation's pictures draw scikit-learn's curves: each line of the ROC and
precision-recall plots holds the points of sklearn.metrics for the same scores, the dots sit
at the rates counted by hand at the threshold, and the residual plot's points are target -
f(x)."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from sklearn import metrics as sk

from svmdesk.app.widgets.canvas import class_color
from svmdesk.app.widgets.evaluation_pictures import curves_figure, residuals_figure
from svmdesk.drawing.evaluation import evaluation_of


def lines(plot) -> dict:
    """Each named line of a plot (no symbols): its name and (x, y)."""
    return {item.name(): item.getData() for item in plot.listDataItems()
            if item.name() and item.opts["symbol"] is None}


def dots(plot) -> np.ndarray:
    (item,) = [item for item in plot.listDataItems() if item.opts["symbol"] is not None]
    return np.column_stack(item.getData())


def scored(seed: int, n: int, columns: int = 0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, max(columns, 2), n)
    shape = (n, columns) if columns else (n,)
    # scores that rank the truth somewhat: curves away from the diagonal, with ties
    bump = np.eye(columns)[truth] if columns else truth
    return truth, np.round(rng.normal(size=shape) + bump, 1)


def test_two_classes_draw_sklearns_curves_of_the_positive_class_per_split(qtbot):
    truth, scores = scored(0, 120)
    e = evaluation_of((0, 1), truth[:80], scores[:80], truth[80:], scores[80:])
    figure = curves_figure(e, ["no", "<yes>"], threshold=0.4, width=800)
    qtbot.addWidget(figure)
    assert (figure.width(), figure.height()) == (800, 300)
    roc, pr = figure.ci.getItem(0, 0), figure.ci.getItem(0, 1)
    for rows, title in ((slice(0, 80), "train"), (slice(80, 120), "test")):
        positive, f = truth[rows] == 1, scores[rows]
        fpr, tpr, _ = sk.roc_curve(positive, f, drop_intermediate=False)
        name = f"{title} &lt;yes&gt;: AUC {sk.roc_auc_score(positive, f):.3f}"
        np.testing.assert_allclose(lines(roc)[name], (fpr, tpr))
        precision, recall, _ = sk.precision_recall_curve(positive, f)
        name = f"{title} &lt;yes&gt;: AP {sk.average_precision_score(positive, f):.3f}"
        np.testing.assert_allclose(lines(pr)[name], (recall, precision))
    by_hand = []
    for rows in (slice(0, 80), slice(80, 120)):
        called, positive = scores[rows] > 0.4, truth[rows] == 1
        tp, fp = np.sum(called & positive), np.sum(called & ~positive)
        by_hand.append((fp / np.sum(~positive), tp / np.sum(positive), tp / (tp + fp)))
    by_hand = np.array(by_hand)
    np.testing.assert_allclose(dots(roc), by_hand[:, :2])
    np.testing.assert_allclose(dots(pr), by_hand[:, [1, 2]])


def test_three_classes_draw_one_curve_per_class_in_its_colour_and_dots_of_the_chosen(qtbot):
    truth, ovo = scored(1, 150, columns=3)           # one-vs-one values (0,1), (0,2), (1,2)
    e = evaluation_of((0, 1, 2), truth, ovo)
    # each class's duel score by hand: its weakest one-vs-one value, turned its way
    scores = np.column_stack([np.minimum(ovo[:, 0], ovo[:, 1]), np.minimum(-ovo[:, 0], ovo[:, 2]),
                              np.minimum(-ovo[:, 1], -ovo[:, 2])])
    names = ["a", "b", "c"]
    figure = curves_figure(e, names, threshold=0.5, chosen=None)
    qtbot.addWidget(figure)
    roc = figure.ci.getItem(0, 0)
    drawn = {item.name(): item for item in roc.listDataItems() if item.name()}
    assert len(drawn) == 3 and not any(item.opts["symbol"] for item in drawn.values())
    for k in range(3):
        fpr, tpr, _ = sk.roc_curve(truth == k, scores[:, k], drop_intermediate=False)
        (item,) = [v for n, v in drawn.items() if n.startswith(f"train {names[k]}:")]
        np.testing.assert_allclose(item.getData(), (fpr, tpr))
        assert item.opts["pen"].color() == class_color(k)
    chosen = curves_figure(e, names, threshold=0.5, chosen=2)
    qtbot.addWidget(chosen)
    called, positive = scores[:, 2] > 0.5, truth == 2
    expected = (np.sum(called & ~positive) / np.sum(~positive),
                np.sum(called & positive) / np.sum(positive))
    np.testing.assert_allclose(dots(chosen.ci.getItem(0, 0)), [expected])
    labels = [item.name() for item in chosen.ci.getItem(0, 0).listDataItems()
              if item.opts["symbol"]]
    assert labels == ["threshold 0.5 on c"]          # the picture says which class it moves


def test_a_split_of_one_class_draws_no_curve(qtbot):
    e = evaluation_of((0, 1), np.ones(5, dtype=np.intp), np.arange(5.0))
    figure = curves_figure(e, ["0", "1"])
    qtbot.addWidget(figure)
    assert lines(figure.ci.getItem(0, 0)) == {} and lines(figure.ci.getItem(0, 1)) == {}


def test_the_residual_plot_shows_target_minus_f_against_f_with_r2_and_mse(qtbot):
    rng = np.random.default_rng(2)
    f, z = rng.normal(size=30), rng.normal(size=30)
    plot = residuals_figure(f[:20], z[:20], f[20:], z[20:], width=600)
    qtbot.addWidget(plot)
    assert (plot.width(), plot.height()) == (600, 450)
    scatters = [item for item in plot.plotItem.items if hasattr(item, "getData")
                and item.name()]
    train, test = scatters
    np.testing.assert_allclose(train.getData(), (f[:20], z[:20] - f[:20]))
    np.testing.assert_allclose(test.getData(), (f[20:], z[20:] - f[20:]))
    assert train.name() == (f"train: R² {sk.r2_score(z[:20], f[:20]):.3f}, "
                            f"MSE {sk.mean_squared_error(z[:20], f[:20]):.3g}")
    assert test.opts["brush"].style() == Qt.BrushStyle.NoBrush        # held out: hollow
