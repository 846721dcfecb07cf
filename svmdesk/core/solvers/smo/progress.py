"""SMO's watch on its own progress. On badly scaled data SMO (LIBSVM's too) can crawl for
minutes without getting anywhere, and the user should hear why instead of waiting; a run that
is getting somewhere, however long it takes, must never be cut short: a fit stopped early is
a worse model that a grid search would silently score low.

The watch samples the best maximal violation reached so far (the violation itself jumps
about; its running minimum only falls) and the best dual objective, against the work the
solver has done: counted, never timed (`counted_work`), so that the same data and parameters stop at
the same step on any machine under any load; a clock would stop a run early beside two busy
processes and let it converge alone. Once PATIENCE units of work are done it judges the
second half of that work:
 * the best violation fell by less than STALL times and the dual objective rose by less
   than DUAL_STALL of itself: the run is not getting anywhere, and it stops (evidence,
   never a projection, stops a run). The dual counts: on 40,000 points at C = 100 the
   violation stands still for minutes while the dual climbs twentyfold, then falls to tol;
 * else it projects the work still needed to reach tol (a straight line in log violation,
   once it falls) and, at the run's pace so far, the seconds that take, kept for the
   readout; the first time that is more than FAR times the work done, or not yet known, it
   says so once, and the run goes on.
Seconds appear only in what is said and shown. A user who wants a bound on the time sets the
estimator's max_time (the one stop that reads a clock) or max_iter.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ....i18n import tr
from ...errors import warn_convergence
from ...standardize_hints import SMO_SPREAD_HINT, standardize_hint

# Work is counted in units of about a nanosecond of solving on the 2-core machine svmdesk is
# developed on: the costs below are fitted (least squares of the relative error) to its
# solving time over ten fits (C-SVC on moons of 1,000 to 20,000 points, random data with 20
# features, linear and rbf; SVR and nu-SVR on diabetes; breast cancer), which the counted
# work then puts at 0.26 to 1.3 times their time. Only the order matters: the same data
# and parameters always count the same work.
PER_STEP = 5_600         # a pair step's own cost: a dozen numpy calls, whatever their length
PER_SWEPT = 21           # each active variable a pair step sweeps (its passes over F)
PER_KERNEL_VALUE = 0.18  # each kernel value computed into the row cache, per feature
PER_SOLVED = 0.04        # a Newton step's k^2 (k + d) for its k free multipliers

PATIENCE = 9.5e9     # units of work before the watch may speak (about 9.5 s there)
STALL = 2.0          # over the last half of the work, the best violation must fall this
DUAL_STALL = 0.01    # many times, or the dual objective rise by this fraction of itself
FAR = 4.0            # a projection beyond this many times the work done is said, once
EVERY = 0.25e9       # units of work between samples


def counted_work(steps: int, swept: int, kernel_values: int, solved: int) -> float:
    """The counted work of a run: its pair steps, the variables they swept, the kernel
    values it computed (times the features) and its Newton steps' k^2 (k + d)."""
    return (PER_STEP * steps + PER_SWEPT * swept + PER_KERNEL_VALUE * kernel_values
            + PER_SOLVED * solved)


@dataclass(frozen=True)
class Verdict:
    """What the watch says: `stop` the run (why), or only tell the user (once)."""

    stop: bool
    message: str


@dataclass
class ProgressWatch:
    tol: float
    patience: float = field(default_factory=lambda: PATIENCE)   # read when made
    # (work, seconds, best violation, best dual)
    samples: list = field(default_factory=list)
    best: float = math.inf
    best_dual: float = -math.inf   # the running dual dips where F is rebuilt: its maximum
    remaining: float | None = None   # seconds still needed at the recent rate (projected)
    said_slow: bool = False

    def due(self, work: float) -> bool:
        return not self.samples or work - self.samples[-1][0] >= EVERY

    def note(self, work: float, violation: float, dual: float, seconds: float
             ) -> Verdict | None:
        """Record a sample after `work` units (`seconds` of solving, for the words and the
        readout alone); return what to do about it, or None to go on silently."""
        self.best = min(self.best, violation)
        self.best_dual = dual = max(self.best_dual, dual)
        self.samples.append((work, seconds, self.best, dual))
        if work < self.patience or self.best <= self.tol:
            return None
        window = work / 2
        if self.samples[0][0] > window:       # no sample from before the window: no evidence
            return None
        then_seconds, then_best, then_dual = self._at(window)
        fell = then_best / self.best if self.best > 0 else math.inf
        rose = (dual - then_dual) / max(abs(then_dual), 1e-300)
        if fell < STALL and rose < DUAL_STALL:
            return Verdict(True, self._stalled(seconds - then_seconds, then_best,
                                               dual <= then_dual))
        # getting somewhere: the violation falls, or the dual still climbs towards it
        still = (math.log(self.best / self.tol) / math.log(fell) * window
                 if fell >= STALL else None)
        self.remaining = None if still is None else still * seconds / work
        if self.said_slow or (still is not None and still <= FAR * work):
            return None
        self.said_slow = True
        pace = (tr("the dual objective still rises while the violation has yet to fall")
                if self.remaining is None else
                tr("still falling, about {seconds} s more at its recent rate").format(
                    seconds=f"{self.remaining:.0f}"))
        return Verdict(False, tr("after {seconds} s the maximal violation is {violation} "
                                 "(tol={tol}): {pace}").format(
            seconds=f"{seconds:.0f}", violation=f"{self.best:.3g}", tol=f"{self.tol:g}",
            pace=pace))

    def reason_to_stop(self, work: float, seconds: float, violation: float, dual: float,
                       X: np.ndarray, C: float) -> str | None:
        """note() in the user's words: why SMO on points X with this C should stop now, or
        None; a run that is slow but getting somewhere is said once, as a warning."""
        verdict = self.note(work, violation, dual, seconds)
        if verdict is None:
            return None
        # standardising helps only where the features' scales differ (the hint says so)
        hint = standardize_hint(X, SMO_SPREAD_HINT)
        advice = (tr("{hint}, or use a smaller C").format(hint=hint) if hint
                  else tr("use a smaller C"))
        if not verdict.stop:            # a run getting somewhere goes on: said once
            warn_convergence(tr("SMO is slow: {verdict}; it goes on (set max_time or max_iter "
                                "to bound it; {advice}, C={C})").format(
                verdict=verdict.message, advice=advice, C=f"{C:g}"), stacklevel=4)
            return None
        return tr("SMO stopped early, not getting anywhere: {verdict}; {advice} (C={C}); set "
                  "max_iter to let it run on").format(verdict=verdict.message, advice=advice,
                                                      C=f"{C:g}")

    def _stalled(self, window: float, then_best: float, dual_still: bool) -> str:
        if then_best <= self.best and dual_still:
            return tr("in the last {seconds} s neither the maximal violation ({violation}) "
                      "nor the dual objective improved").format(
                seconds=f"{window:.0f}", violation=f"{self.best:.3g}")
        return tr("in the last {seconds} s the maximal violation fell only from {then} to "
                  "{violation} (tol={tol}) and the dual objective rose less than {share}"
                  ).format(seconds=f"{window:.0f}", then=f"{then_best:.3g}",
                           violation=f"{self.best:.3g}", tol=f"{self.tol:g}",
                           share=f"{DUAL_STALL:.0%}")

    def _at(self, work: float) -> tuple[float, float, float]:
        """The seconds, the best violation and the dual at the last sample no later than
        `work`."""
        earlier = [s for s in self.samples if s[0] <= work] or self.samples[:1]
        return earlier[-1][1], earlier[-1][2], earlier[-1][3]
