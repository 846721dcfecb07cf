"""The canvas's and the charts' axes label their ticks with the values themselves, never
scaled by an SI prefix ('x1 (x0.001)' over ticks 100..900 read wrong; issue #44)."""
import pytest

TIMEOUT = 10_000   # ms


def drawn_ticks(axis, qtbot) -> list:
    """The tick strings the axis paints next (its own tickStrings, recorded)."""
    seen: list = []
    own = axis.tickStrings

    def record(values, scale, spacing):
        strings = own(values, scale, spacing)
        seen.extend(strings)
        return strings

    axis.tickStrings = record
    try:
        axis.picture = None              # drop the painted ticks: the next paint makes them
        axis.update()
        qtbot.waitUntil(lambda: bool(seen), timeout=TIMEOUT)
    finally:
        del axis.tickStrings
    return seen


@pytest.mark.parametrize("low, high", [(1e-4, 9e-4), (1e5, 9e5)], ids=["tiny", "large"])
@pytest.mark.parametrize("plot", ["canvas", "objective chart"])
def test_axes_show_plain_values(window, qtbot, plot, low, high):
    widget = window.canvas if plot == "canvas" else window.charts.objective_plot
    widget.setRange(xRange=(low, high), yRange=(low, high), padding=0)
    for name in ("bottom", "left"):
        axis = widget.getAxis(name)
        label = axis.labelString()
        assert "(x" not in label and axis.autoSIPrefixScale == 1.0, label
        ticks = drawn_ticks(axis, qtbot)
        values = [float(t) for t in ticks]                 # plain numbers ('0.0005', '500000')
        assert all(low * (1 - 1e-9) <= v <= high * (1 + 1e-9) for v in values), ticks
        assert len(values) >= 3, ticks


@pytest.mark.parametrize("gaps", [(8e-17, 7e-17), (3e-4, 2.5e-4, 2e-4), (1e3, 1e-6)],
                         ids=["within a decade", "within another", "nine decades"])
def test_the_gap_chart_labels_whole_decades_only(window, qtbot, gaps):
    """Its axis is some 150 px tall: labels of the minor ticks within one decade (8e-17 over
    7e-17) were written over each other."""
    charts = window.charts
    charts.show_rows([(k + 1, 1.0, 1.0 - gap, gap) for k, gap in enumerate(gaps)])
    axis = charts.gap_plot.getAxis("left")
    labelled = []
    own = axis.tickStrings

    def record(values, scale, spacing):
        strings = own(values, scale, spacing)
        labelled.extend(v for v, s in zip(values, strings) if s)
        return strings

    axis.tickStrings = record
    try:
        axis.picture = None
        axis.update()
        qtbot.waitUntil(lambda: bool(labelled), timeout=TIMEOUT)
    finally:
        del axis.tickStrings
    assert all(float(v).is_integer() for v in labelled), labelled     # log10 units
    assert len(set(labelled)) >= 2, labelled
