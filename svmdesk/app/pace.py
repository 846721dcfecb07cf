"""Play's pace: how many steps a run playing at `rate` steps a second owes by a moment.

Play asks the paused solver for steps as a clock says they are due, at most one ask a
frame: at a rate above the frame rate each frame shows the last of several steps. The
clock sets only how fast the steps are shown; which steps the solver takes is the same
as in any other run, so the model does not depend on it."""
from __future__ import annotations

RATES = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000)
DEFAULT_RATE = 10
MOST_BEHIND = 0.1      # s: steps owed for longer than this are forgiven, not caught up at once


class Pace:
    """Steps due at `rate` a second since `now`, less those asked for already."""

    def __init__(self, rate: float, now: float) -> None:
        self.rate, self.since, self.asked = float(rate), now, 0

    def wait(self, now: float) -> float:
        """Seconds from `now` until one more step is due (0: one is due now)."""
        return max(0.0, self.since + (self.asked + 1) / self.rate - now)

    def take(self, now: float) -> int:
        """The steps due by `now` (at least one), counted as asked for. A window too slow
        to show the rate (a long paint, a busy machine) is forgiven what it owes beyond
        MOST_BEHIND: it goes on at the rate from here, not in one big jump."""
        owed = int((now - self.since) * self.rate) - self.asked
        most = max(1, int(self.rate * MOST_BEHIND))
        if owed > most:
            self.since, self.asked = now - most / self.rate, 0
            owed = most
        owed = max(1, owed)
        self.asked += owed
        return owed
