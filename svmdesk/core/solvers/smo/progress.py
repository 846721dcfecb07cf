"""SMO's watch on its own progress: on badly scaled data or at a large C it can go on for
minutes, improving so slowly that it would pass LIBSVM's own time many times over, and the
user should hear why instead of waiting.

The watch samples the best maximal violation reached so far (the violation itself jumps
about; its running minimum only falls) and the dual objective, against the time the solver
itself has spent (time suspended at a snapshot, such as a paused run, does not count). Once
PATIENCE seconds are spent, it projects the time still needed to reach tol from how fast the
best violation fell over the second half of that time (a straight line in log violation).
When the projection is more than FAR times what was spent, or the violation and the
objective have both stood still, it says to stop. Runs that converge on their own in a few
seconds (unscaled breast_cancer with the poly kernel, which LIBSVM needs minutes for) end
before the watch may speak.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

PATIENCE = 9.5       # seconds of solver time before the watch may stop a run
FAR = 4.0            # stop when tol is projected more than this many times the time spent away
EVERY = 0.25         # seconds of solver time between samples


@dataclass
class ProgressWatch:
    tol: float
    patience: float = field(default_factory=lambda: PATIENCE)   # read when made
    samples: list = field(default_factory=list)     # (seconds, best violation, dual)
    best: float = math.inf

    def due(self, seconds: float) -> bool:
        return not self.samples or seconds - self.samples[-1][0] >= EVERY

    def note(self, seconds: float, violation: float, dual: float) -> str | None:
        """Record a sample; return why the run should stop, or None to go on."""
        self.best = min(self.best, violation)
        self.samples.append((seconds, self.best, dual))
        if seconds < self.patience or self.best <= self.tol:
            return None
        then_best, then_dual = self._at(seconds / 2)
        fell = math.log(then_best / self.best) if self.best > 0 else math.inf
        if fell <= 0 and dual <= then_dual:
            return (f"in the last {seconds / 2:.0f} s neither the maximal violation "
                    f"({self.best:.3g}) nor the dual objective improved")
        projected = math.log(self.best / self.tol) / fell * (seconds / 2) if fell > 0 \
            else math.inf
        if projected <= FAR * seconds:
            return None
        remaining = "no end in sight" if math.isinf(projected) else \
            f"about {projected:.0f} s more at its recent rate"
        return (f"after {seconds:.0f} s the maximal violation is {self.best:.3g} "
                f"(tol={self.tol:g}), which would take {remaining}")

    def _at(self, seconds: float) -> tuple[float, float]:
        """The best violation and the dual at the last sample no later than `seconds`."""
        earlier = [s for s in self.samples if s[0] <= seconds] or self.samples[:1]
        return earlier[-1][1], earlier[-1][2]
