"""The comparison's canvases change one at a time: the next change waits for the paint of
the last, comes in a later pass of the event loop, and takes the canvases round in order."""
import pytest

from svmdesk.app.training.draw_turns import PAINT_WAIT_MS, DrawTurns

from .waiting import pause

WAIT = 5_000   # ms
PATIENT = 600_000   # ms: a paint awaited longer than any test runs (a loaded machine's
                    # slow passes never count as a paint that did not come)


@pytest.fixture
def turns(qapp):
    made: list = []
    t = DrawTurns(paint_wait_ms=PATIENT)

    def change(k, paints=True):
        def make():
            made.append(k)
            return paints
        return make

    t.made, t.change = made, change
    yield t
    t.clear()
    t.deleteLater()


def test_one_change_at_a_time_each_after_the_last_ones_paint(turns, qtbot):
    for k in (0, 1, 2):
        turns.put(k, turns.change(k))
    assert turns.made == []                       # not in the pass that asked
    qtbot.waitUntil(lambda: turns.made == [0], timeout=WAIT)
    pause(30)
    assert turns.made == [0]                      # canvas 0 has not painted yet
    turns.painted(1)                              # another canvas's paint: not awaited
    pause(30)
    assert turns.made == [0]
    turns.painted(0)
    assert turns.made == [0]                      # the next in a pass of its own
    qtbot.waitUntil(lambda: turns.made == [0, 1], timeout=WAIT)
    turns.painted(1)
    qtbot.waitUntil(lambda: turns.made == [0, 1, 2], timeout=WAIT)


def test_a_later_change_replaces_the_one_waiting(turns, qtbot):
    turns.put(0, turns.change("first of 0"))
    qtbot.waitUntil(lambda: turns.made == ["first of 0"], timeout=WAIT)
    turns.put(1, turns.change("old of 1"))
    turns.put(1, turns.change("new of 1"))
    turns.painted(0)
    qtbot.waitUntil(lambda: turns.made[-1] == "new of 1", timeout=WAIT)
    pause(100)
    assert turns.made == ["first of 0", "new of 1"]


def test_the_canvases_are_taken_round_from_the_last_one_changed(turns, qtbot):
    turns.put(2, turns.change(2))
    qtbot.waitUntil(lambda: turns.made == [2], timeout=WAIT)
    for k in (0, 3, 1):
        turns.put(k, turns.change(k))
    for count, k in enumerate((2, 3, 0), start=2):
        turns.painted(k)
        qtbot.waitUntil(lambda count=count: len(turns.made) == count, timeout=WAIT)
    assert turns.made == [2, 3, 0, 1]


def test_a_change_that_paints_nothing_lets_the_next_come_at_once(turns, qtbot):
    turns.put(0, turns.change(0, paints=False))
    turns.put(1, turns.change(1))
    qtbot.waitUntil(lambda: turns.made == [0, 1], timeout=WAIT)


def test_a_paint_that_never_comes_holds_the_turns_a_moment_only(qapp, qtbot):
    made: list = []
    turns = DrawTurns()
    for k in (0, 1):                              # canvas 0 went out of sight
        turns.put(k, lambda k=k: made.append(k) or True)
    qtbot.waitUntil(lambda: made == [0, 1], timeout=PAINT_WAIT_MS + WAIT)
    turns.clear()


def test_drained_once_every_change_is_made_and_painted(turns, qtbot):
    turns.put(0, turns.change(0))
    turns.put(1, turns.change(1, paints=False))
    qtbot.waitUntil(lambda: turns.made == [0], timeout=WAIT)
    with qtbot.waitSignal(turns.drained, timeout=WAIT):
        turns.painted(0)
    assert turns.made == [0, 1]


def test_cleared_turns_forget_the_changes_waiting(turns, qtbot):
    turns.put(0, turns.change(0))
    qtbot.waitUntil(lambda: turns.made == [0], timeout=WAIT)
    turns.put(1, turns.change(1))
    turns.clear()
    turns.put(2, turns.change(2))                 # not held by canvas 0's paint either
    qtbot.waitUntil(lambda: turns.made == [0, 2], timeout=WAIT)
    pause(100)
    assert turns.made == [0, 2]
