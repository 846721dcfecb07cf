"""Regression in the window as a teacher shows the epsilon-insensitive loss: samples placed
and dragged with the mouse, generated or opened, trained with the buttons; the curve, its
tube, the rings and the residuals drawn; the readout's R^2, tube and samples outside; saved,
exported, reopened and pictured. scikit-learn's SVR is the oracle."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from svmdesk import resources
from svmdesk.app.training.run import RunState
from svmdesk.core import SVR, NuSVR
from svmdesk.formats import load_model, save_model
from svmdesk.formats.targets import load_targets

from .test_first_day import _examples_menu
from .test_labels import CTRL, press
from .test_panel_rows import _box
from .test_tasks import (
    choose,
    crashed_and_restored,
    fixed_gamma,
    saved_and_reopened,
    step_twice_and_stop,
    train,
    type_value,
)
from .test_window import TIMEOUT, click, drag


def regression(window, kind="epsilon_svr") -> None:
    choose(window.panel.task, kind)
    assert window.points.task == "regression"


def generated(window, qtbot, name="sine", n=60) -> None:
    p = window.panel
    regression(window)
    choose(p.data_box.generator, name)
    p.data_box.n_points.setValue(n)
    qtbot.mouseClick(p.data_box.generate_button, Qt.MouseButton.LeftButton)
    assert len(window.points) == n


def test_the_task_box_turns_points_into_samples_and_shows_the_regressors_rows(window):
    p = window.panel
    X, classes = window.points.X.copy(), window.points.y.copy()
    regression(window)
    np.testing.assert_array_equal(window.points.X, X)          # each point where it was
    assert (not p.data_box.klass.isVisible() and p.run_box.residuals.isVisible()
            and not p.run_box.hard_regions.isVisible())
    assert p.controls["epsilon"].widget.isVisible() and p.controls["C"].widget.isVisible()
    assert not p.controls["C"].choice.isVisible()              # no hard margin for a tube
    assert not p.controls["nu"].widget.isVisible()
    assert p.rows["epsilon"][0].text() == "ε"
    choose(p.solver, "kernel-gradient")
    assert "ε-SVR" in p.reason.text() and not p.run_box.train_button.isEnabled()
    choose(p.solver, "dual-gradient")
    assert p.run_box.train_button.isEnabled()
    choose(p.task, "nu_svr")
    assert "ν-SVR" in p.reason.text()                           # SMO only
    choose(p.solver, "smo")
    assert p.controls["nu"].widget.isVisible() and not p.controls["epsilon"].widget.isVisible()
    assert set(p.params()) == set(NuSVR().get_params())
    press(window, Qt.Key.Key_Z, CTRL)
    assert window.points.task == "classification"
    np.testing.assert_array_equal(window.points.y, classes)    # the classes come back


def test_clicks_add_samples_and_training_draws_the_curve_and_its_tube(window, qtbot):
    p = window.panel
    generated(window, qtbot)
    n = len(window.points)
    click(window, 0.5, 0.25)
    click(window, 1.0, 0.5, Qt.MouseButton.RightButton)       # a sample too
    assert len(window.points) == n + 2 and "sample" in window.undo.undoText()
    np.testing.assert_allclose(window.points.X[-1], (1.0, 0.5), atol=0.05)
    fixed_gamma(window, qtbot, 1.0)
    type_value(qtbot, p.controls["C"].widget.spin, 10)
    type_value(qtbot, p.controls["epsilon"].widget.spin, 0.1)
    frame = train(window, qtbot)
    model = window.fitted
    assert isinstance(model, SVR) and model.epsilon == 0.1
    X = window.points.X
    from sklearn.svm import SVR as Oracle
    oracle = Oracle(C=10, epsilon=0.1, gamma=1.0, tol=1e-3).fit(X[:, :1], X[:, 1])
    np.testing.assert_allclose(model.predict(X[:, :1]), oracle.predict(X[:, :1]), atol=2e-2)
    scene = frame.scene
    assert scene.regression and scene.tube == 0.1
    x, f = scene.curve[:, 0], scene.curve[:, 1]
    np.testing.assert_allclose(f, model.predict(x[:, None]), atol=1e-9)
    c = window.canvas
    np.testing.assert_allclose(c.boundary.getData()[1], f)
    upper = c.margins.getData()[1][:len(x)]
    np.testing.assert_allclose(upper, f + 0.1)
    residual = np.abs(X[:, 1] - model.predict(X[:, :1]))
    assert int(scene.bounded.sum()) == int((residual[model.support_] > 0.1 + 1e-3).sum())
    fit = frame.reading.fit
    assert fit.r2 == model.score(X[:, :1], X[:, 1])
    r = p.readout
    label = p.readout_box._form.labelForField(r["train"]).text()
    assert "R²" in label and r["train"].text().startswith(f"{fit.r2:.3f}")
    assert r["margin"].text() == "0.1" and r["fractions"].text().endswith("%")
    assert len(c.residuals.getData()[0]) == 3 * len(X)
    qtbot.mouseClick(p.run_box.residuals, Qt.MouseButton.LeftButton, pos=_box(p.run_box.residuals))
    assert c.residuals.getData()[0] is None or len(c.residuals.getData()[0]) == 0


def test_nu_svr_finds_its_tube_and_shows_the_nu_property(window, qtbot):
    p = window.panel
    generated(window, qtbot, "heteroscedastic", 80)
    choose(p.task, "nu_svr")
    type_value(qtbot, p.controls["nu"].widget.spin, 0.3)
    frame = train(window, qtbot)
    model = window.fitted
    assert isinstance(model, NuSVR) and frame.scene.tube == model.epsilon_
    fit = frame.reading.fit
    assert fit.nu == 0.3 and fit.outside <= 0.3 + 1e-9 <= fit.support + 1e-9
    r = p.readout
    assert r["margin"].text() == f"{model.epsilon_:.6g}"
    assert "0.3" in r["fractions"].text()
    assert "found" in p.readout_box._form.labelForField(r["margin"]).text()


def test_dragging_a_sample_far_off_moves_the_curve_with_retraining_on(window, qtbot):
    p = window.panel
    generated(window, qtbot, "sine", 30)
    train(window, qtbot)
    retrain = p.run_box.auto_retrain
    qtbot.mouseClick(retrain, Qt.MouseButton.LeftButton, pos=_box(retrain))
    k = 15
    x0, y0 = window.points.X[k]
    before = window.fitted.predict([[x0]])[0]
    (_, _), (low, high) = window.canvas.view.viewRange()
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        drag(window, (x0, y0), (x0, high - 0.05 * (high - low)))
    qtbot.waitUntil(lambda: window.run.state == RunState.FINISHED, timeout=TIMEOUT)
    assert window.points.X[k][1] > y0 + 0.5
    assert window.fitted.predict([[x0]])[0] > before


def test_pause_and_step_a_regression_run(window, qtbot):
    generated(window, qtbot, "step", 60)
    paused = step_twice_and_stop(window, qtbot)
    assert paused.scene.regression and paused.reading.fit is not None


def test_a_regression_session_comes_back_exactly(window, another_window, qtbot, monkeypatch,
                                                 tmp_path):
    p = window.panel
    generated(window, qtbot, "trend_outliers", 50)
    p.data_box.test_fraction.setValue(0.2)
    type_value(qtbot, p.controls["epsilon"].widget.spin, 0.25)
    train(window, qtbot)
    X, _, test, _, _ = window.points.state()
    saved, other = saved_and_reopened(window, another_window, qtbot, monkeypatch,
                                      tmp_path / "trend.svmdesk")
    assert saved.task == "regression" and (saved.targets == X[:, 1]).all()
    assert saved.settings["kind"] == "epsilon_svr" and saved.settings["epsilon"] == 0.25
    qtbot.waitUntil(lambda: isinstance(other.fitted, SVR), timeout=TIMEOUT)
    X2, _, test2, _, task = other.points.state()
    assert task == "regression" and other.panel.task.currentData() == "epsilon_svr"
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(test2, test)
    np.testing.assert_array_equal(other.fitted.predict(X[:, :1]),
                                  window.fitted.predict(X[:, :1]))
    assert other.last_frame.scene.regression


def test_an_autosaved_regression_window_restores_its_samples(
        window, qtbot, private_state_dir, another_window):
    generated(window, qtbot, "sine", 40)
    click(window, 0.3, 0.3)
    X = window.points.X.copy()
    other = crashed_and_restored(window, private_state_dir, another_window, qtbot)
    assert other.points.task == "regression"
    np.testing.assert_array_equal(other.points.X, X)


def test_samples_saved_as_data_reopen_exactly(window, qtbot, tmp_path):
    generated(window, qtbot, "sine", 40)
    X = window.points.X.copy()
    path = tmp_path / "sine.csv"
    window.files.save_points_to(path)
    qtbot.waitUntil(lambda: path.exists(), timeout=TIMEOUT)
    features, targets, _ = load_targets(path)
    np.testing.assert_array_equal(np.column_stack([features[:, 0], targets]), X)
    window.editing.clear_points()
    window.files.open(path)
    qtbot.waitUntil(lambda: len(window.points) == len(X), timeout=TIMEOUT)
    np.testing.assert_array_equal(window.points.X, X)


def test_the_regression_example_opens_from_the_menu_in_its_task(window, qtbot):
    example = next(e for e in resources.EXAMPLES if e.task == "regression")
    action = next(a for a in _examples_menu(window).actions() if a.text() == example.title)
    action.trigger()
    qtbot.waitUntil(lambda: window.points.task == "regression" and len(window.points) > 10,
                    timeout=TIMEOUT)
    features, targets, _ = load_targets(resources.example_path(example))
    np.testing.assert_array_equal(window.points.X, np.column_stack([features[:, 0], targets]))
    assert window.panel.task.currentData() == "epsilon_svr"


def test_models_export_for_libsvm_and_open_only_over_samples(window, qtbot, tmp_path):
    generated(window, qtbot, "sine", 40)
    train(window, qtbot)
    window.files.export_to(tmp_path / "sine.model")
    qtbot.waitUntil(lambda: (tmp_path / "sine.model").exists(), timeout=TIMEOUT)
    assert "svm_type epsilon_svr" in (tmp_path / "sine.model").read_text()
    window.files.save_model_to(tmp_path / "sine.json")
    qtbot.waitUntil(lambda: (tmp_path / "sine.json").exists(), timeout=TIMEOUT)
    assert isinstance(load_model(tmp_path / "sine.json"), SVR)
    press(window, Qt.Key.Key_Z, CTRL)                          # ... until classification
    while window.points.task != "classification":
        press(window, Qt.Key.Key_Z, CTRL)
    window.files.open(tmp_path / "sine.json")
    qtbot.waitUntil(lambda: "choose a regression task" in window.notices.banner.text(),
                    timeout=TIMEOUT)
    regression(window)
    window.files.open(tmp_path / "sine.json")
    qtbot.waitUntil(lambda: isinstance(window.fitted, SVR), timeout=TIMEOUT)
    assert window.last_frame.scene.regression


def test_a_regressor_of_two_features_is_refused(window, qtbot, tmp_path):
    rng = np.random.default_rng(0)
    save_model(SVR().fit(rng.normal(size=(20, 2)), rng.normal(size=20)), tmp_path / "two.json")
    regression(window)
    window.files.open(tmp_path / "two.json")
    qtbot.waitUntil(lambda: "1 feature only" in window.notices.banner.text(), timeout=TIMEOUT)
    assert window.fitted is None


def test_pictures_say_the_regressor_and_its_fit(window, qtbot, tmp_path):
    generated(window, qtbot, "sine", 40)
    train(window, qtbot)
    caption = window.files.caption()
    assert caption.startswith("ε-SVR · ") and "epsilon = 0.1" in caption and "R²" in caption
    assert window.files.save_picture_to(tmp_path / "sine.png", 800, caption)
    assert (tmp_path / "sine.png").stat().st_size > 1000


def test_the_window_draws_what_svmdesk_render_draws(window, qtbot, tmp_path):
    """The same model over the same samples: the window's curve, tube and rings are
    render's (#57), which draws them for teachers' handouts."""
    import pyqtgraph as pg

    from svmdesk.cli.regression_picture import regression_plot

    generated(window, qtbot, "trend_outliers", 50)
    frame = train(window, qtbot)
    model, X = window.fitted, window.points.X
    plot = regression_plot(X[:, 0], X[:, 1], ("x", "y"), model, 800)
    rings = {item.opts["symbol"]: {tuple(p) for p in np.column_stack(item.getData())}
             for item in plot.plotItem.items
             if isinstance(item, pg.ScatterPlotItem) and item.opts["size"] == 16}
    scene = frame.scene
    assert rings["s"] == {tuple(p) for p in scene.support_xy[scene.bounded]}
    assert rings["o"] == {tuple(p) for p in scene.support_xy[~scene.bounded]}
    curves = [item for item in plot.plotItem.items if isinstance(item, pg.PlotCurveItem)]
    upper = curves[0].getData()
    np.testing.assert_allclose(upper[1], model.predict(upper[0][:, None]) + scene.tube)
