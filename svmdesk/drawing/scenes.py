"""The records a frame is made of (numpy only): the scene the canvas draws, the reading
the readout and charts show, where the run stood, and the frame holding them.
live_frames.py and model_frames.py make them for classifiers and one-class machines,
curves.py for regressors."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.estimators import SVC, SVR, Machine, NuSVR, OneClassSVM
from ..core.model import SVMModel
from ..core.solvers.base import Snapshot
from ..core.solvers.smo.trace import KKTStates, PairStep
from .decision_grid import GridSpec
from .evaluation import Evaluation, FitEvaluation


@dataclass(frozen=True)
class Scene:
    """What the canvas draws of a moment: f (or the class regions) on a grid and the
    pictures of its regions, the boundary and margin lines, and the support vectors."""

    spec: GridSpec
    classes: tuple                     # class indices (negative, positive) of the machine
                                       # drawn: the canvas colours its sides by them
    values: np.ndarray | None          # f on the grid (binary / current machine), float32
    regions: np.ndarray | None         # class index on the grid (multi-class)
    contours: dict                     # level -> polylines, NaN rows between them
    support: np.ndarray                # training indices of support vectors
    support_xy: np.ndarray             # their positions when the run started
    bounded: np.ndarray                # bool per support vector: alpha at C (inside margin)
                                       # or, with a hard margin, a margin not met; one-class:
                                       # outside the region (f < OUTSIDE)
    hard_margin: bool = False          # C = inf: no alpha is bounded, every margin must be met
    ring_share: np.ndarray | None = None
                                       # per support vector: |alpha| over its bound C_i (or
                                       # over the largest |alpha|, ring_basis says), the
                                       # share of its ring's area; None: the solver has no
                                       # alpha (a primal one), its rings are plain
    ring_basis: str = ""               # "bound": shares of C_i; "largest": of the largest
                                       # |alpha| (no fixed bound: hard margin, nu-SVC, a
                                       # model without its C); "": no shares
    colours: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))
                                       # the class index of each of the model's classes
    one_class: bool = False            # a one-class machine: its edge f = 0, no margins, the
                                       # region f >= 0 tinted, outside it white
    outside_xy: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
                                       # one-class: every point (training, held out or marked)
                                       # outside the region, in input units
    # The pictures of its regions (RGBA rows): the sides of f, paler towards the boundary,
    # and at full strength ("hard regions"); or the class regions of a multi-class model.
    # Coloured once, where the scene is made (off the GUI thread, by _coloured); a frame
    # copied with its scene (paused, the run's last snapshot) keeps them.
    picture: np.ndarray | None = field(default=None, repr=False, compare=False)
    hard_picture: np.ndarray | None = field(default=None, repr=False, compare=False)
    # A regression (values, regions and pictures None, contours empty): the curve f(x), its
    # tube f(x) +- tube, and each training sample's residual. support_xy is then (x, target)
    # of each support vector, bounded: it lies outside the tube (curves.outside_tube).
    # A model of three or more classes, for a threshold to move one class's region
    # (frame_views.at_threshold), both (K, ny, nx) in the model's class order (colours maps
    # it; grid.duel_grid): each class's duel score, and the class (the model's index)
    # voted among the others when it is left out. None otherwise.
    duel_scores: np.ndarray | None = field(default=None, repr=False, compare=False)
    votes_without: np.ndarray | None = field(default=None, repr=False, compare=False)
    # A classifier model with Platt's sigmoids (probability=True), else None: each class's
    # probability on the grid (K, ny, nx) float32 in the model's class order (colours maps
    # it), its picture (shading.probability_picture) and the boundary it draws, polylines:
    # P(positive) = 0.5 for two classes, the borders of the most probable classes for more.
    class_probabilities: np.ndarray | None = field(default=None, repr=False, compare=False)
    probability_picture: np.ndarray | None = field(default=None, repr=False, compare=False)
    probability_boundary: np.ndarray | None = field(default=None, repr=False, compare=False)
    regression: bool = False
    curve: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
                                       # (m, 2): x across the view's x range and f(x)
    tube: float = 0.0                  # the tube's half-width (nu-SVR: the width found)
    residuals: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
                                       # (3n, 2): per sample (x, y), (x, f(x)), a NaN row
    slack: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
                                       # a linear classifier's: from each margin violator to
                                       # its margin, (3k, 2) with NaN rows between
                                       # (frame_parts.slack_segments); else empty
    batch_xy: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
                                       # a run of Pegasos: where the points of its last
                                       # step's mini-batch lie; else empty
    pair_xy: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
                                       # SMO: where the points i and j of its last pair step
                                       # lie (a regression's: (x, target)); else empty
    kkt_xy: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
    kkt: KKTStates | None = None       # SMO: the KKT state of each of the machine's training
                                       # points, which lie at kkt_xy; else None


@dataclass(frozen=True)
class Fractions:
    """nu's two bounds as a nu machine meets them: errors <= nu <= support (LIBSVM: the
    multipliers at their bound <= nu n <= the support vectors). errors: the fraction of
    training points outside a one-class region, or of a nu-SVC machine's points on the
    wrong side of their margin; support: the fraction that are support vectors. Each is
    (lowest, highest) over the machines, equal for one."""

    errors: tuple[float, float]
    support: tuple[float, float]
    nu: float
    per_machine: bool = False          # of several machines (a live frame: the current one's)


@dataclass(frozen=True)
class FitReading:
    """How a regression fits: R^2 (as SVR.score) and the mean squared error on the training
    samples and on the held-out ones (None without any), the tube's half-width, the
    fraction of training samples outside it, nu (nu-SVR's, else None) and the fraction of
    training samples that are support vectors (nu-SVR's nu-property: outside <= nu <=
    support)."""

    r2: float | None
    mse: float | None
    r2_test: float | None
    mse_test: float | None
    tube: float
    outside: float | None
    nu: float | None = None
    support: float | None = None


@dataclass(frozen=True)
class Reading:
    """What the readout and the charts show of a moment."""

    snapshot: Snapshot                 # the solver's state
    machine: Machine                   # the machine it trains (for a model: its first)
    train_accuracy: float | None
    test_accuracy: float | None
    margin_width: float | None         # 2 / ||w||, linear kernel only
    elapsed: float
    history: tuple = ()                # (iteration, primal, dual, gap) of every snapshot
                                       # since the previous frame, for the charts
    fractions: Fractions | None = None  # nu-SVC and one-class: how nu's bounds are met
    marks_outside: tuple[int, int] | None = None   # one-class with outlier marks: (marks
                                                   # outside the region, marks)
    fit: FitReading | None = None      # a regression: how the curve fits
    pair_step: PairStep | None = None  # SMO: its last pair step, i and j numbering the
                                       # run's training points
    slack: float | None = None         # one classifier machine's: the sum of its training
                                       # points' slacks xi_i = max(0, 1 - y_i f(x_i)),
                                       # the primal's hinge part over C


@dataclass(frozen=True)
class RunMark:
    """Where the run stood when the frame was shown."""

    final: bool = False                # the run's last frame
    stopped: bool = False              # ... of a run the user stopped
    paused: bool = False               # shown while the run is paused: the solver waits here
    steps: int = 0                     # the steps the run had taken when it was shown
    pauses: int = 0                    # the pauses the run had been asked for by then


@dataclass(frozen=True)
class Frame:
    """One moment of training as the window shows it: what the canvas draws (scene), what
    the readout and charts show (reading), where the run stood (run), and the function it
    is of, to draw it again over another view or read it under the mouse."""

    scene: Scene
    reading: Reading
    run: RunMark = RunMark()
    model: SVMModel | None = None      # the fitted model at the end of a full run
    estimator: SVC | OneClassSVM | SVR | NuSVR | None = None    # the fitted estimator
                                                                # then (to save or export)
    f_terms: tuple = ()                # (scaled points, coefficients) of f's kernel sum
    f_points: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))
                                       # a live frame's: the training indices of those points
    evaluation: Evaluation | FitEvaluation | None = None
                                           # what the evaluation view shows: scores, curves
                                           # and truth of a classifier's or one-class
                                           # machine's points (a live frame: of a binary run
                                           # only), a regression's fit of its samples
    probability_evaluation: Evaluation | None = None
                                           # a model with probabilities: the same points
                                           # scored by P (evaluation.probability_split_of),
                                           # for a threshold on P instead of f
