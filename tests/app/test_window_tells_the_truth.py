"""What the window says while it runs is true: the readout and both charts keep up with the
run when paints are slow, the status bar says what the run is doing now, and a banner goes
when its cause does. Driven through keys, buttons and the menus, each wait bounded."""
import time

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk.app.training.run import RunState
from svmdesk.core import SVC
from svmdesk.formats import save_model

from .test_run_controls import key, start_long_run, wait_state

WAIT = 10_000   # ms
SLOW_PAINT = 0.15   # s: longer than the texts' interval (a loaded machine's paints)


@pytest.mark.slow
def test_the_readout_and_both_charts_keep_up_when_paints_are_slow(window, qtbot):
    # A paint pass that takes SLOW_PAINT: the canvas's own signal, sent from its paint
    # event, holds the GUI thread (a loaded machine's paints take that long)
    window.canvas.painted.connect(lambda: time.sleep(SLOW_PAINT))
    seen = []                      # (frame's iteration, what the readout and charts show)
    charts, readout = window.charts, window.panel.readout
    window.frame_shown.connect(lambda frame: seen.append((
        frame.reading.snapshot.iteration, readout["iteration"].text(),
        len(charts.primal_curve.xData if charts.primal_curve.xData is not None else ()),
        len(charts.gap_curve.xData if charts.gap_curve.xData is not None else ()))))
    start_long_run(window, qtbot)
    qtbot.waitUntil(lambda: len(seen) >= 12, timeout=WAIT)
    assert window.run.state == RunState.RUNNING
    key(window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.running, timeout=WAIT)
    # Every frame came after a slow paint, later than the texts' interval: every text fell
    # due at every frame and was shown after the next paint, none waiting behind another.
    for (_, text, primal, gap), (iteration, *_) in zip(seen[3:12], seen[2:11]):
        assert text == str(iteration), seen
        assert primal > 0 and gap > 0, seen
    assert len({text for _, text, _, _ in seen[3:12]}) >= 8, seen    # each frame's number


def test_the_status_bar_says_what_the_run_does_now(window, qtbot):
    bar = window.statusBar()
    start_long_run(window, qtbot)
    assert bar.currentMessage().startswith("Training")
    window.panel.run_box.pause_button.click()
    wait_state(window, qtbot, RunState.PAUSED)
    assert bar.currentMessage().startswith("Paused"), bar.currentMessage()
    key(window, Qt.Key.Key_Space)                                       # resume
    wait_state(window, qtbot, RunState.RUNNING)
    assert bar.currentMessage().startswith("Training"), bar.currentMessage()
    window.panel.run_box.reset_button.click()
    qtbot.waitUntil(lambda: window.run.state == RunState.IDLE, timeout=WAIT)
    assert bar.currentMessage().startswith("Reset"), bar.currentMessage()
    assert window.panel.readout["iteration"].text() == "–"
    window.panel.run_box.step_button.click()                                    # from rest: paused
    wait_state(window, qtbot, RunState.PAUSED)
    assert bar.currentMessage().startswith("Paused"), bar.currentMessage()
    key(window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.run.state == RunState.FINISHED, timeout=WAIT)
    assert "stopped" in bar.currentMessage(), bar.currentMessage()


def test_a_banner_about_a_model_goes_with_the_model(window, qtbot, tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    labels = np.where(X[:, 0] > 0, "cat", "dog")                       # not the points' classes
    save_model(SVC(kernel="linear").fit(X, labels), tmp_path / "pets.json")
    window.files.open(tmp_path / "pets.json")
    banner = window.notices.banner
    assert banner.isVisible() and "none of the model's classes" in banner.text()
    window.panel.run_box.reset_button.click()
    assert not banner.isVisible(), banner.text()                        # no model: no banner
    window.panel.data_box.generate_button.click()
    window.panel.data_box.generate_button.click()
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not banner.isVisible(), banner.text()
    assert window.fitted is None


def menu_action(window, words):
    from PySide6.QtGui import QAction

    return next(a for a in window.findChildren(QAction)
                if words in a.text().replace("&", ""))


def test_a_banner_about_the_last_action_goes_at_the_next_change(window, qtbot):
    menu_action(window, "Export model").trigger()                       # no model yet
    banner = window.notices.banner
    assert banner.isVisible() and "no model yet" in banner.text()
    window.panel.data_box.generate_button.click()                                # the points change
    assert not banner.isVisible(), banner.text()


@pytest.mark.slow
def test_support_vectors_do_not_jump_when_kernel_gradient_converges(window, qtbot):
    window.editing.generate("moons", 1000, 0.2, 0)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))
    p.kernel.setCurrentText("rbf")
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        # at rest, x100 starts a run that waits at its hundredth iteration (99: snapshots
        # count from 0). Pausing a run under way at its hundredth raced it: on a busy
        # machine the next frame shown could be the last, and Space found no run to pause.
        p.run_box.step_100_button.click()
        qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED
                        and window.last_frame is not None and window.last_frame.run.paused
                        and window.last_frame.reading.snapshot.iteration == 99, timeout=WAIT)
        paused = int(p.readout["svs"].text().split()[0])
        key(window, Qt.Key.Key_Space)                                    # and on to the end
    final = ended.args[0]
    assert final.reading.snapshot.converged
    assert len(final.scene.support) <= 1.5 * paused + 5 and len(final.scene.support) < 250, paused
    assert len(window.fitted.support_) == len(final.scene.support)
    assert int(p.readout["svs"].text().split()[0]) == len(final.scene.support)
    assert "support vector: α > 1% of C, y f(x) ≤ 1.1" in p.readout_box.legend.text()


def test_the_readout_shows_the_time_smo_projects_it_still_needs(window, qtbot):
    import dataclasses

    window.panel.controls["max_iter"].widget.setValue(50)
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        key(window, Qt.Key.Key_F5)
    frame = ended.args[0]
    running = dataclasses.replace(
        frame, run=dataclasses.replace(frame.run, final=False),
        reading=dataclasses.replace(frame.reading, snapshot=dataclasses.replace(
            frame.reading.snapshot, converged=False, remaining=42.4)))
    window.panel.readout_box.show_frame(running)
    assert window.panel.readout["elapsed"].text().endswith("(about 42 s more)")
    window.panel.readout_box.show_frame(frame)                  # the end: nothing more
    assert "more" not in window.panel.readout["elapsed"].text()


def test_a_run_converged_only_when_every_machine_did(window, qtbot):
    """Three classes: the one-vs-one machines of the far class spend kernel gradient's
    budget, the last machine (two overlapping classes) converges. The readout said
    "converged" (the last machine's word) beside the warning that the run had not."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal((0, 5), 0.3, (20, 2)), rng.normal((-0.3, 0), 0.6, (20, 2)),
                   rng.normal((0.3, 0), 0.6, (20, 2))])
    window.editing.replace_points(X, np.repeat([0, 1, 2], 20), ("-1", "1", "2"), "three")
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))
    p.kernel.setCurrentIndex(p.kernel.findData("rbf"))
    p.controls["max_iter"].widget.setValue(300)
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        key(window, Qt.Key.Key_F5)
    assert not window.fitted.converged_ and ended.args[0].reading.snapshot.converged
    assert p.readout["state"].text() == "budget spent (not converged)"
    assert "stopped after 300 iterations" in window.statusBar().currentMessage()
