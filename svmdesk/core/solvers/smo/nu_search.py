"""The nu form solved through the C form it equals, where the nu form's own pair steps crawl.

The nu form holds e'a at S within each class besides y'a (nu.py). Its Lagrangian says that
its solution solves the C form with the linear term shifted, p + s e, at the shift s where
that solution's e'a is S: the nu form's r is -s (nu-SVR: s is the tube's width epsilon;
nu-SVC: 1/-s is the C of the C-SVC it equals). e'a(s) falls as s grows, so s is found by a
safeguarded secant search, each C-form solve started from the last solution. The C form
has what makes SMO fast (Newton steps on the free multipliers, shrinking every few hundred
steps), which the nu form's pair steps, zig-zagging between the classes, have not: on
standardised diabetes (NuSVR, nu 0.5, C 100) 0.8 s against 10 s for a linear kernel, 0.4 s
against 7.9 s for poly; on a noisy sine with rbf 0.15 s against 3.1 s (bench/bench_nu.py).

The run: the nu form's own solver first, for DIRECT_WORK of counted work (a small fit ends
there, as before); then the search, for at most SEARCH_WORK; then the nu solver again from
the point where the search ends, which makes the answer the nu form's own at tol. Its start:
the two solutions that bracket S, mixed so that e'a is exactly S (and so each class's sum:
y'a is held by both). Within one piece of e'a(s), where the free set does not change, a is
linear in s and the mixture is the optimum itself; at a jump of e'a(s) (its ends closer than
tol) both ends and every mixture solve the C form at that s, so the mixture is optimal there
too. The polish then has almost nothing left to do.

Every decision is taken on counted work and the data, never a clock: the same data and
parameters give the same model on any machine. A run with its own budget (max_iter,
max_time) stays on the nu form's own solver, whose steps it counts, and so does one on a
kernel that is not positive semi-definite (sigmoid), whose C-form solves could end at other
stationary points (seen on diabetes: a worse objective than LIBSVM's).
"""
from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import replace

import numpy as np

from ..base import Snapshot, Wanted
from ..problems import DualProblem
from . import shrinking
from .nu import NuSMO
from .solver import _SMO

# counted work (progress.counted_work, about a nanosecond a unit on the machine it was
# calibrated on) the nu form's own solver has before the search takes over...
DIRECT_WORK = 1e8
# ...and the search has in all before the nu solver goes on from where it ended
SEARCH_WORK = 2e9
SEARCH_SOLVES = 40          # C-form solves at most: the bracket narrows geometrically
NEAR = 1e-3                 # e'a within this share of S: near enough for the polish...
EXACT = 1e-12               # ...from a mixture of the bracket's ends; S itself without one
FIRST_STEP = 0.1            # the first move of s, a share of |s| (at least 10 tol)
REACH = 4.0                 # a secant move is at most this many times the last


def solve_nu_form(problem: DualProblem, every: int, wanted: Wanted) -> Iterator[Snapshot]:
    """Snapshots of the nu form's solution (entry.solve_problem's contract)."""
    direct = NuSMO(problem)
    if _searchable(problem):
        direct.hand_over_at = DIRECT_WORK
    yield from direct.run(every, wanted)
    if not direct.handed_over:
        return
    (start, F), steps = yield from _search(problem, direct, every, wanted)
    polish = NuSMO(replace(problem, start=start), F)
    for snapshot in polish.run(every, wanted):
        yield replace(snapshot, iteration=direct.iteration + steps + snapshot.iteration)


def _searchable(problem: DualProblem) -> bool:
    """The search serves a run without a budget of its own (max_iter, max_time: the nu form's
    own pair steps, which they count) on a kernel whose dual is convex: where it is not
    (sigmoid), the C form's solves may end at other stationary points than the nu form's."""
    return (problem.max_iter is None and problem.max_time is None
            and problem.kernel.positive_semidefinite)


def _search(problem: DualProblem, direct: NuSMO, every: int, wanted: Wanted
            ) -> Generator[Snapshot, None, tuple[tuple, int]]:
    """The C-form solves of the search, their snapshots passed on; returns the polish's
    start (a, and the nu form's F there when it is known exactly, else None) and the pair
    steps the search took. Each solve starts from the last one's end, its F carried over:
    the shift moves F by -y s, so no kernel column is computed again."""
    target = float(problem.start.sum())
    b_pos, b_neg = direct._class_biases()
    shift = 0.5 * (b_pos - b_neg)                  # -r of the nu form's current state
    bracket = _Bracket(target, max(FIRST_STEP * abs(shift), 10 * problem.tol), problem.tol,
                       problem.rescaled)
    shrinking.reconstruct(direct)                  # F exact for every variable
    point = (direct.alpha_in_caller_order(), direct.F_in_caller_order())
    steps, work = 0, 0.0
    for _ in range(SEARCH_SOLVES):
        alpha, F = point
        solver = _Shifted(replace(problem, p=problem.p + shift, per_class=False, start=alpha,
                                  rescaled=False), F - problem.y * shift, shift,
                          problem.rescaled)
        solver.watch = None                        # bounded by the search's own budget
        solver.hand_over_at = SEARCH_WORK - work
        for snapshot in solver.run(every, wanted):
            if not snapshot.iteration:             # a solve that found its start optimal
                continue
            yield replace(snapshot, converged=False,
                          iteration=direct.iteration + steps + snapshot.iteration)
        steps, work = steps + solver.iteration, work + solver._work()
        if solver.handed_over:                     # the search's budget is spent
            return (_balanced(problem, solver.alpha_in_caller_order()), None), steps
        point = (solver.alpha_in_caller_order(),
                 solver.F_in_caller_order() + problem.y * shift)
        following = bracket.add(shift, point)
        if following is None:
            break
        shift = following
    alpha, F = bracket.mixture()
    balanced = _balanced(problem, alpha)
    exact = np.abs(balanced - alpha).max() <= EXACT * problem.upper.max()
    return (balanced, F if exact else None), steps


class _Shifted(_SMO):
    """The C form at shift s; nu-SVC's snapshots scaled by 1/r = 1/-s, as its final one."""

    def __init__(self, p: DualProblem, F: np.ndarray, shift: float, rescaled: bool) -> None:
        super().__init__(p, F)
        self.scale = 1.0 / -shift if rescaled and shift < 0 else 1.0

    def _bias_and_scale(self) -> tuple[float, float]:
        return self._bias(), self.scale


class _Bracket:
    """The shifts tried, and the next: e'a(s) - S >= 0 at `low`, <= 0 at `high`."""

    def __init__(self, target: float, step: float, tol: float, negative: bool = False
                 ) -> None:
        """negative: every shift worth solving at is below 0 (nu-SVC: C = 1/-s; at s >= 0
        every multiplier is 0); else e'a(s) may jump at 0 (nu-SVR: a tube of width 0)."""
        self.target, self.step, self.tol, self.negative = target, step, tol, negative
        self.low: tuple | None = None              # (s, e'a - S, (a, F))
        self.high: tuple | None = None
        self.last: tuple | None = None             # (s, e'a - S) of the solve before
        self.stalled_side: bool | None = None
        self.latest: tuple | None = None           # the last solution
        self.tried_zero = self.tried_beside = False

    def add(self, shift: float, point: tuple) -> float | None:
        """The next shift to solve at, or None once the bracket is near enough. point: the
        solution at `shift`, (a, the nu form's F there)."""
        excess = float(point[0].sum()) - self.target
        if excess >= 0:
            self.low = (shift, excess, point)
        else:
            self.high = (shift, excess, point)
        self.latest = point
        if abs(excess) <= EXACT * self.target:
            return None
        if self.low is not None and self.high is not None:
            if abs(excess) <= NEAR * self.target or self.high[0] - self.low[0] <= self.tol:
                return None
            return self._within(excess >= 0)
        return self._outward(shift, excess)

    def _within(self, above: bool) -> float:
        """The secant point of the bracket; its middle when the same end moved twice (a
        secant creeps toward a jump of e'a(s): halving narrows the bracket to tol in a few
        solves)."""
        (s_lo, g_lo, _), (s_hi, g_hi, _) = self.low, self.high      # type: ignore[misc]
        # nu-SVR's e'a(s) jumps at a tube of width 0 (below it a and a* of one point may
        # both grow): 0 first, then tol beside it, closes a bracket around a jump there
        if s_lo < 0.0 < s_hi and not (self.tried_zero or self.negative):
            self.tried_zero = True
            return 0.0
        if 0.0 in (s_lo, s_hi) and s_hi - s_lo > self.tol and not self.tried_beside:
            self.tried_beside = True
            return self.tol if s_lo == 0.0 else -self.tol
        stalled = self.stalled_side == above
        self.stalled_side = above
        if stalled:
            return 0.5 * (s_lo + s_hi)
        return s_lo + (s_hi - s_lo) * g_lo / (g_lo - g_hi)

    def _outward(self, shift: float, excess: float) -> float:
        """No bracket yet: the secant through the last two solves, at least the first step
        and at most REACH times the last move, in the direction the excess says; REACH
        times the last move where e'a(s) is flat there."""
        toward = 1.0 if excess > 0 else -1.0
        move = self.step
        if self.last is not None:
            moved = shift - self.last[0]
            slope = (excess - self.last[1]) / moved
            move = REACH * abs(moved)
            if slope < 0:
                move = min(max(abs(excess / slope), self.step), move)
        self.last = (shift, excess)
        if self.negative and shift + toward * move >= 0.0:
            return 0.5 * shift                     # halfway to 0, where C is infinite
        return shift + toward * move

    def mixture(self) -> tuple:
        """The mixture of the bracket's two solutions whose e'a is S exactly, (a, F): F is
        affine in a; without a bracket, the last solution (its e'a is S, to rounding, or
        the search's solves ran out). A solution off S has multipliers the nu form's has
        not, which the polish would leave as small as its tol allows, but not zero: the
        mixture has none of them where its ends agree."""
        if self.low is None or self.high is None:
            assert self.latest is not None        # add() was called
            return self.latest
        (_, g_lo, (a_lo, F_lo)), (_, g_hi, (a_hi, F_hi)) = self.low, self.high
        share = g_lo / (g_lo - g_hi) if g_lo != g_hi else 0.0
        return a_lo + (a_hi - a_lo) * share, F_lo + (F_hi - F_lo) * share


def _balanced(problem: DualProblem, alpha: np.ndarray) -> np.ndarray:
    """`alpha` with each class's sum moved to its start's (the nu form's constraint), in
    the box: a deficit spread over the room below the bounds of the multipliers already
    above zero (a zero one stays zero, unless none has room), an excess taken in
    proportion. A mixture from the bracket is changed by rounding alone."""
    alpha = np.clip(alpha, 0.0, problem.upper)
    for members in (problem.y > 0, problem.y < 0):
        want, part, upper = problem.start[members].sum(), alpha[members], problem.upper[members]
        gap = want - part.sum()
        if gap > 0:
            room = np.where(part > 0, upper - part, 0.0)
            if not room.sum() >= gap:
                room = upper - part
            part = part + room * min(1.0, gap / room.sum())
        elif gap < 0:
            part = part * (want / part.sum())
        alpha[members] = np.clip(part, 0.0, upper)
    return alpha
