"""The model is drawn over the points (#45): at 20,000 moons the boundary shows through the
markers, which shrink as their number grows, and the support-vector rings stay outlines."""
import numpy as np
import pytest
from PySide6.QtGui import QImage

from svmdesk.app.widgets.canvas import MARKER_SIZE, RING_SIZE, marker_size, ring_style

TIMEOUT = 10_000   # ms: the longest any test waits (the house rule)
BOUNDARY = np.array([0x11, 0x11, 0x11])     # the boundary pen's colour


def _picture(canvas) -> np.ndarray:
    """The canvas rendered offscreen, as an (h, w, 3) array of RGB."""
    image = canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
    bgra = rows[:, :4 * image.width()].reshape(image.height(), -1, 4).astype(int)
    return bgra[..., 2::-1]


def _boundary_colour(picture: np.ndarray) -> np.ndarray:
    return np.abs(picture - BOUNDARY).max(axis=2) <= 4


def _rendered(canvas, hidden) -> np.ndarray:
    shown = [item.isVisible() for item in hidden]
    for item in hidden:
        item.setVisible(False)
    try:
        return _picture(canvas)
    finally:
        for item, visible in zip(hidden, shown):
            item.setVisible(visible)


@pytest.mark.slow
def test_the_boundary_shows_over_20000_moons(window, qtbot):
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    p.kernel.setCurrentText("rbf")
    window.editing.generate("moons", 20_000, 0.2, 0)
    window.resize(1280, 700)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as blocker:
        window.train()
    frame = blocker.args[0]
    assert frame.scene.bounded.sum() > 1000             # the red squares are many
    canvas = window.canvas
    points = [*canvas.scatter, canvas.held_out]
    rings = [canvas.free_rings, canvas.bounded_rings]
    # The boundary's pixels: of its colour with neither points nor rings drawn, and not of
    # it with the boundary hidden too (the axes' text and ticks are dark as well).
    alone = _boundary_colour(_rendered(canvas, points + rings))
    without = _boundary_colour(_rendered(canvas, points + rings + [canvas.boundary]))
    reference = alone & ~without
    assert reference.sum() > 1000                 # a curve across the plot
    # ... and how many of them still show with everything drawn
    everything = _boundary_colour(_picture(canvas))
    visible = (everything & reference).sum() / reference.sum()
    assert visible >= 0.9, f"{visible:.1%} of the boundary's pixels show"


def test_markers_keep_their_size_for_small_data_and_shrink_for_large():
    assert marker_size(0) == marker_size(200) == marker_size(1000) == MARKER_SIZE
    sizes = [marker_size(n) for n in (1000, 2000, 5000, 10_000, 20_000, 100_000, 10**7)]
    assert all(a >= b for a, b in zip(sizes, sizes[1:]))     # never grows with the count
    assert 3 <= sizes[-1] < sizes[0] and marker_size(20_000) <= 5
    assert ring_style(200) == (RING_SIZE, 2, 255)
    big, thin, faint = ring_style(20_000)
    assert marker_size(20_000) < big < RING_SIZE and thin < 2 and faint < 255


def test_markers_follow_the_number_of_points(window):
    canvas = window.canvas
    window.editing.generate("moons", 200, 0.2, 0)
    assert {item.opts["size"] for item in canvas.scatter} == {MARKER_SIZE}
    window.editing.generate("moons", 20_000, 0.2, 0)
    assert {item.opts["size"] for item in canvas.scatter} == {marker_size(20_000)}
    assert canvas.bounded_rings.opts["size"] == ring_style(20_000)[0]
    window.editing.generate("moons", 200, 0.2, 0)
    assert {item.opts["size"] for item in canvas.scatter} == {MARKER_SIZE}
    # the model's curves and rings are drawn over the markers
    top = max(item.zValue() for item in canvas.scatter)
    for item in (canvas.boundary, canvas.margins, canvas.free_rings, canvas.bounded_rings):
        assert item.zValue() > top
