"""SMO step by step as a teacher shows it: Step moves one pair step, whose two points the
canvas rings and labels i and j over the boundary before the step; the readout names the
pair and its multipliers before and after, as the solver's own trace and snapshots say;
Step x10 and x100 show their last step alone; Resume and Pause in odd orders stay truthful."""
import numpy as np
import pytest

from svmdesk.app.training.run import RunState
from svmdesk.core.solvers.smo.trace import AT_BOUND, FREE

from .waiting import pause

WAIT = 5000   # ms


def smo_on_moons(window, n=400, C=10.0):
    window.editing.generate("moons", n, 0.3, 0)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    p.kernel.setCurrentText("rbf")
    p.controls["C"].widget.set_value(C)


def stepped(window, qtbot, button, iteration):
    """Click `button` and wait for the paused frame at `iteration`; that frame."""
    button.click()
    qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED
                    and window.last_frame is not None and window.last_frame.run.paused
                    and window.last_frame.reading.snapshot.iteration == iteration,
                    timeout=WAIT)
    return window.last_frame


def stop(window, qtbot):
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=WAIT)


def training_points(window):
    return window.points.X[~window.points.test_mask]


def alphas(frame):
    return np.abs(frame.reading.snapshot.dual_coef)


def assert_marked(window, frame):
    """The canvas rings and labels the pair the solver updated last."""
    step = frame.reading.pair_step
    assert (step.i, step.j) == frame.reading.snapshot.working_pair
    marks = window.canvas.step_marks
    xs, ys = marks.rings.getData()
    np.testing.assert_array_equal(np.column_stack([xs, ys]),
                                  training_points(window)[[step.i, step.j]])
    for label, k, name in zip(marks.labels, (step.i, step.j), ("i", "j")):
        assert label.isVisible() and label.textItem.toPlainText() == name
        assert (label.pos().x(), label.pos().y()) == tuple(training_points(window)[k])


def test_step_moves_one_pair_and_marks_it_as_the_solver_did(window, qtbot):
    smo_on_moons(window)
    box = window.panel.run_box
    first = stepped(window, qtbot, box.step_button, 1)      # from rest: paused at the first
    assert_marked(window, first)
    before = first
    for iteration in (2, 3, 4):
        frame = stepped(window, qtbot, box.step_button, iteration)
        step = frame.reading.pair_step
        assert step.steps == 1
        assert_marked(window, frame)
        # the multipliers before and after: the two snapshots'
        for k, moved in ((step.i, step.alpha_i), (step.j, step.alpha_j)):
            assert moved == pytest.approx((alphas(before)[k], alphas(frame)[k]), abs=1e-12)
        words = window.panel.readout["pair"].text()
        assert words.startswith(f"pair ({step.i}, {step.j}):")
        assert f"{step.alpha_i[1]:.3g}" in words and f"{step.alpha_j[0]:.3g}" in words
        # the lines before the step lie faint under the new ones
        drawn_before = window.canvas.step_marks.before_boundary.getData()[0]
        assert drawn_before is not None and len(drawn_before) > 0
        before = frame
    stop(window, qtbot)


def test_each_points_kkt_state_is_marked_as_the_solver_judges_it(window, qtbot):
    smo_on_moons(window, n=300, C=1.0)
    box = window.panel.run_box
    stepped(window, qtbot, box.step_button, 1)
    frame = stepped(window, qtbot, box.step_10_button, 11)
    kkt, X = frame.reading.snapshot.kkt, training_points(window)
    marks = window.canvas.step_marks
    for item, state in ((marks.free, FREE), (marks.bound, AT_BOUND)):
        xs, ys = item.getData()
        np.testing.assert_array_equal(np.column_stack([xs, ys]), X[kkt.state == state])
    breaking = kkt.violation > 1e-3
    xs, ys = marks.violators.getData()
    np.testing.assert_array_equal(np.column_stack([xs, ys]), X[breaking])
    sizes = np.array([p.size() for p in marks.violators.points()])
    order = np.argsort(kkt.violation[breaking])
    assert breaking.any() and np.all(np.diff(sizes[order]) >= 0)   # wider as it breaks more
    legend = marks.legend
    assert legend.isVisible()
    assert [label.text for _, label in legend.items] == [
        "the pair i, j", "before the step", "α free (0 &lt; α &lt; C)", "α at its bound C",
        "breaks the KKT conditions (wider: more)"]             # as HTML: '<' written out
    stop(window, qtbot)


def test_step_x10_and_x100_show_only_their_last_step(window, qtbot):
    smo_on_moons(window, n=600, C=100.0)
    box = window.panel.run_box
    stepped(window, qtbot, box.step_button, 1)
    shown = []
    window.frame_shown.connect(shown.append)
    frame = stepped(window, qtbot, box.step_10_button, 11)
    assert len(shown) == 1 and shown[0] is frame
    assert_marked(window, frame)
    frame = stepped(window, qtbot, box.step_100_button, 111)
    assert len(shown) == 2
    assert_marked(window, frame)
    xs, _ = window.charts.primal_curve.getData()            # the charts kept every step
    assert list(xs[-100:]) == list(range(12, 112))
    stop(window, qtbot)


def test_step_x10_at_rest_starts_a_run_and_shows_its_tenth_step(window, qtbot):
    smo_on_moons(window, n=600, C=100.0)
    shown = []
    window.frame_shown.connect(shown.append)
    frame = stepped(window, qtbot, window.panel.run_box.step_10_button, 10)
    assert len(shown) == 1 and shown[0] is frame
    assert_marked(window, frame)
    stop(window, qtbot)


def test_resume_hides_the_pair_and_pause_shows_where_the_run_stands(window, qtbot):
    smo_on_moons(window, n=2000, C=1e4)
    window.panel.controls["tol"].widget.set_value(1e-5)     # a run of many seconds: it is
    box = window.panel.run_box                              # still under way when paused
    stepped(window, qtbot, box.step_button, 1)
    box.pause_button.click()                                # Resume: a live run marks no pair
    qtbot.waitUntil(lambda: window.run.state == RunState.RUNNING
                    and not window.last_frame.run.paused, timeout=WAIT)
    assert not window.canvas.step_marks.shown
    qtbot.waitUntil(lambda: window.panel.readout["pair"].text() == "Step shows each pair",
                    timeout=WAIT)                       # the readout follows the frames
    running_at = window.canvas.geometry()
    box.step_10_button.click()                              # x10 while running: it pauses
    qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED
                    and window.run.shows_the_pause(window.last_frame), timeout=WAIT)
    at, steps = window.last_frame.reading.snapshot.iteration, window.last_frame.run.steps
    box.step_10_button.click()
    qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED
                    and window.last_frame.run.steps == steps + 10, timeout=WAIT)
    frame = window.last_frame
    # ten iterations of the solver: pair steps, unless one of them set points aside
    # (shrinking, which moves no multiplier) where the run happened to pause
    assert at < frame.reading.snapshot.iteration <= at + 10
    if frame.reading.pair_step is not None:
        assert_marked(window, frame)
    pause(50)                   # laid out again after the texts: the canvas has not moved
    assert window.canvas.geometry() == running_at
    stop(window, qtbot)


def test_reset_clears_the_pair(window, qtbot):
    smo_on_moons(window)
    stepped(window, qtbot, window.panel.run_box.step_button, 1)
    window.panel.run_box.reset_button.click()
    qtbot.waitUntil(lambda: window.run.state == RunState.IDLE, timeout=WAIT)
    assert not window.canvas.step_marks.shown
    assert len(window.canvas.step_marks.rings.getData()[0]) == 0
    assert not window.canvas.step_marks.legend.isVisible()


def test_the_readout_says_a_shrink_and_a_newton_step_in_words():
    from types import SimpleNamespace

    from svmdesk.app.widgets.readout import _step_words
    from svmdesk.core.solvers.smo.trace import NewtonStep, PairStep, Shrunk

    pair = PairStep(17, 203, (0.2, 1.0), (0.1, 0.9), 1.5, 1.8, 1.2, 0.8, 0.1, 1)
    reading = SimpleNamespace(pair_step=pair, snapshot=SimpleNamespace(
        trace=(pair, Shrunk(500, 380), NewtonStep(12))))
    assert _step_words(reading, "c_svc") == (
        "pair (17, 203): α₁₇ 0.2 → 1, α₂₀₃ 0.1 → 0.9, clipped at C; shrinking set 120 "
        "points aside; a Newton step moved 12 free multipliers together")
    alone = SimpleNamespace(pair_step=None, snapshot=SimpleNamespace(trace=(Shrunk(9, 4),)))
    assert _step_words(alone, "c_svc") == "shrinking set 5 points aside"


@pytest.mark.parametrize(("kind", "generator"), [
    ("c_svc", "blobs"), ("nu_svc", "moons"), ("one_class", "blobs_outliers"),
    ("epsilon_svr", "sine"), ("nu_svr", "sine")])
def test_every_kind_steps_pair_by_pair(window, qtbot, kind, generator):
    """Each machine SMO trains marks its pairs: a C-SVC of three classes (its one-vs-one
    machines, pairs numbering the training points), nu-SVC, the one-class SVM and both
    regressors (the sample whose a or a* moved)."""
    from svmdesk.app.tasks import MARK

    from .test_tasks import choose

    p = window.panel
    choose(p.task, kind)
    window.editing.generate(generator, 150, 0.3, 0)
    if kind == "c_svc":                                  # three classes, named as people do
        X, y = window.points.X, window.points.y
        window.points.replace(X, np.arange(len(y)) % 3, class_names=["-1", "+1", "0"])
    frame = stepped(window, qtbot, p.run_box.step_button, 1)
    for iteration in (2, 3):
        frame = stepped(window, qtbot, p.run_box.step_button, iteration)
    step = frame.reading.pair_step
    assert step is not None and frame.reading.snapshot.kkt is not None
    points = window.points
    kept = ~points.test_mask & ((points.y != MARK) if points.novelty else True)
    X = points.X[kept]
    np.testing.assert_array_equal(np.column_stack(window.canvas.step_marks.rings.getData()),
                                  X[[step.i, step.j]])
    assert (step.star_i is None) == (kind not in ("epsilon_svr", "nu_svr"))
    assert window.panel.readout["pair"].text().startswith(f"pair ({step.i}, {step.j})")
    stop(window, qtbot)


def test_the_pair_subproblem_follows_each_step(window, qtbot):
    """Beside the charts while paused: the box [0, C]^2, and where the pair stood, its
    optimum on the line and where the step ended, each as the trace says."""
    smo_on_moons(window, n=300, C=1.0)
    box, inset = window.panel.run_box, window.pair_inset
    assert not inset.isVisible()
    clipped = 0
    for iteration in range(1, 9):
        frame = stepped(window, qtbot, box.step_button, iteration)
        step = frame.reading.pair_step
        assert inset.isVisible() and inset.step is step
        shown = [tuple(np.ravel(item.getData())) for item in inset.points]
        assert shown == [step.along(0.0), step.along(step.unclipped), step.along(step.taken)]
        assert shown[2] == pytest.approx((step.alpha_i[1], step.alpha_j[1]), abs=1e-12)
        xs, ys = inset.box.getData()
        assert (max(xs), max(ys)) == (1.0, 1.0)
        clipped += step.clipped
    assert clipped                          # C = 1: the box stops some of them
    box.pause_button.click()                # Resume: out of sight while the run goes on
    qtbot.waitUntil(lambda: not inset.isVisible(), timeout=WAIT)
    stop(window, qtbot)


def test_a_small_step_in_a_big_box_is_shown_zoomed_in(window, qtbot):
    """C = 1000: the first pair steps move about a hundred, later ones a few units in a
    box of 1000; the inset then zooms on the step's points, all three in sight, and its
    top left corner says how far."""
    smo_on_moons(window, n=300, C=1000.0)
    inset, box = window.pair_inset, window.panel.run_box
    frame = stepped(window, qtbot, box.step_button, 1)
    assert inset.zoom == 1.0 and inset.zoom_text.toPlainText() == ""
    for tens in range(1, 11):                 # a step small beside the box comes soon
        frame = stepped(window, qtbot, box.step_10_button, 1 + 10 * tens)
        if inset.zoom > 1.0:
            break
    step = frame.reading.pair_step
    (x0, x1), (y0, y1) = inset.viewRange()
    assert inset.zoom > 1.0 and max(x1 - x0, y1 - y0) < 1000 / 10 * 1.2
    for x, y in (step.along(0.0), step.along(step.unclipped), step.along(step.taken)):
        assert x0 < x < x1 and y0 < y < y1
    assert inset.zoom_text.toPlainText() == f"zoomed ×{inset.zoom:.0f}"
    assert inset.getPlotItem().titleLabel.text == "pair subproblem"
    corner = inset.zoom_text.pos()
    assert (corner.x(), corner.y()) == (x0, y1)         # the view's top left corner
    stop(window, qtbot)
