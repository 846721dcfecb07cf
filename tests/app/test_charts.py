"""The live charts: history buffer, coarse axis ranges, and what a run leaves on them."""
import numpy as np
import pytest

from svmdesk.app.widgets.charts import (
    History,
    TrainingCharts,
    _decade_range,
    _nice_ceiling,
    _padded_range,
)

from .test_window import TIMEOUT, set_up_a_long_run


def test_history_grows_past_its_buffer_and_clears():
    h = History()
    rows = [(i, 10.0 - i, i / 2, np.inf if i == 3 else 1.0 / (i + 1)) for i in range(1000)]
    h.extend(rows[:10])
    h.extend(rows[10:])
    assert len(h) == 1000
    np.testing.assert_array_equal(h.column("iteration"), np.arange(1000))
    assert np.isnan(h.column("gap")[3])                  # inf becomes a gap in the curve
    h.clear()
    assert len(h) == 0 and len(h.column("primal")) == 0


@pytest.mark.parametrize("x, expected", [(0, 1), (1, 1), (3, 5), (7, 10), (10, 10),
                                         (11, 20), (420, 500), (1e6 + 1, 2e6)])
def test_iteration_axis_ends_on_a_round_number(x, expected):
    assert _nice_ceiling(x) == expected


def test_objective_range_holds_still_until_the_data_leave_or_shrink_inside_it():
    first = _padded_range(np.array([0.0, 10.0]), None)
    assert first == pytest.approx((-1.0, 11.0))
    assert _padded_range(np.array([1.0, 9.0]), first) == first          # still fits
    assert _padded_range(np.array([0.0, 20.0]), first) != first         # left the range
    assert _padded_range(np.array([4.0, 5.0]), first) == pytest.approx((3.9, 5.1))
    assert _padded_range(np.array([np.nan]), None) == (0.0, 1.0)


def test_gap_range_spans_whole_decades():
    assert _decade_range(np.log10([0.5, 3e-4])) == (-4.0, 0.0)
    assert _decade_range(np.log10([0.05])) == (-2.0, -1.0)
    assert _decade_range(np.array([np.nan])) == (-3.0, 0.0)


def test_charts_draw_the_history_and_set_ranges_once(qtbot):
    charts = TrainingCharts()
    for plot in (charts.objective_plot, charts.gap_plot):
        qtbot.addWidget(plot)
    charts.extend([(i, 5.0 - i / 10, 1.0 + i / 20, 2.0 ** -i) for i in range(1, 31)])
    charts.redraw()
    x, y = charts.primal_curve.getData()
    np.testing.assert_allclose(x, np.arange(1, 31))
    np.testing.assert_allclose(y, 5.0 - np.arange(1, 31) / 10)
    (x0, x1), (y0, y1) = charts.objective_plot.getViewBox().viewRange()
    assert (x0, x1) == pytest.approx((0, 100))          # at least 100 iterations wide
    # the settled part (the last 80% of iterations) fills the chart; the first steps may not
    assert y0 < 1.3 and 4.4 < y1 < 4.9
    ranges = dict(charts._ranges)
    charts.redraw()
    assert charts._ranges == ranges
    charts.clear()
    assert _points(charts.primal_curve) == 0


@pytest.mark.slow
def test_readout_and_charts_follow_a_long_run_before_it_ends(window, qtbot):
    set_up_a_long_run(window)
    window.train()
    qtbot.waitUntil(lambda: window.panel.readout["iteration"].text() not in ("–", ""),
                    timeout=TIMEOUT)
    qtbot.waitUntil(lambda: _points(window.charts.primal_curve) > 1, timeout=TIMEOUT)
    assert window.running
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        window.stop()
    shown = int(window.panel.readout["iteration"].text().split()[0])
    assert shown == window.last_frame.reading.snapshot.iteration
    assert window.charts.history.column("iteration")[-1] == shown


def _points(curve) -> int:
    x = curve.getData()[0]
    return 0 if x is None else len(x)
