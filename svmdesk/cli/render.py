"""`svmdesk render`: the canvas with the points (and a model) drawn into a PNG or SVG file,
headless (Qt is imported here only, on the offscreen platform)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ..core import MAX_CLASSES, SVC, DataError, Dataset
from ..core.kinds import KINDS
from ..formats import load_dataset
from ..formats.label_matching import foreign_classes_warning, match_labels
from ..formats.points import load_unlabelled, require_features
from ..formats.targets import load_targets
from ..i18n import N_, tr
from .common import (
    EXIT_OK,
    RENDER_WIDTH,
    check_folder,
    command,
    offscreen_application,
    warning_line,
    width_value,
    wrote,
)
from .predict import read_model

RENDER_HELP = N_("""\
Draw what svmdesk's canvas shows into an image file, without a display: the points of
DATA (one colour and marker per class, a legend, axes named after the feature columns),
in a view fitted to them, and with --model the model's decision regions, boundary
f(x) = 0 (solid), margins f(x) = +-1 (dashed) and support vectors (rings: circles free,
red squares bounded).  With a one-class model DATA's columns are all features (a LIBSVM
file's labels are left aside): the region f(x) >= 0 and its edge are drawn, no margins,
and the support vectors outside it as red squares.  With a regressor of one feature
DATA's label column is the target: the points (x, y), the curve f(x), its tube f(x) +-
epsilon (dashed) and the support vectors (circles on the tube's edge, red squares outside
it).  Data with more than two features shows its first two (a model of classes must have
exactly two).  The image is W pixels wide and 3/4 of that high.  A model
none of whose classes is a class of DATA is refused (exit 2); one over points well outside
the range it was trained on is drawn, with the window's warning on stderr.

{data_formats}

{exit_codes}

example:
  svmdesk render moons.csv --model moons.json --out moons.png --width 1600""")


def add_parser(commands) -> None:
    p = command(commands, "render", N_("draw the points and a model into a PNG or SVG image"),
                RENDER_HELP, run)
    p.add_argument("data", metavar="DATA", help=tr("the points to draw (CSV or LIBSVM file)"))
    p.add_argument("--model", metavar="MODEL", default=None,
                   help=tr("an svmdesk JSON model with two features to draw with the points "
                           "(default: the points only)"))
    p.add_argument("--out", required=True, metavar="FILE",
                   help=tr("the image to write: FILE.png or FILE.svg"))
    p.add_argument("--width", type=width_value, default=1200, metavar="W",
                   help=tr("the image width in pixels, {least} to {most} (default 1200); the "
                           "height is 3/4 of it").format(least=RENDER_WIDTH[0],
                                                         most=RENDER_WIDTH[1]))


def run(args) -> int:
    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(tr("--out {out}: the image file must end in .png or .svg").format(
            out=args.out))
    check_folder(out)
    svc = None if args.model is None else read_model(args.model)
    if svc is not None and svc.model_.is_regressor:
        return _render_regression(args, svc, out)
    data = _points(args.data, svc)
    if len(data.class_names) > MAX_CLASSES:
        raise DataError(tr("{name} has {k} classes; the canvas draws at most {most}").format(
            name=Path(args.data).name, k=len(data.class_names), most=MAX_CLASSES))
    if svc is not None:
        if svc.n_features_in_ != 2:
            raise DataError(tr("{name} has {n} features; render draws models of two "
                               "features only").format(name=Path(args.model).name,
                                                       n=svc.n_features_in_))
        require_features(data.X, data.feature_names, 2, Path(args.data), "")
        strangers = foreign_classes_warning(data.class_names, svc.model_.classes)
        if strangers:      # its regions would say nothing of these points: one colour
            raise DataError(tr("{model} over {data}: {strangers} Nothing drawn: render these "
                               "points with a model trained on their classes, or without "
                               "--model").format(model=Path(args.model).name,
                                                 data=Path(args.data).name,
                                                 strangers=strangers))
    canvas = _draw(data, svc, args.width)
    from ..app.files.file_types import range_warning
    from ..app.widgets.pictures import save_picture
    save_picture(canvas, out, args.width)
    print(wrote(out))
    extrapolation = "" if svc is None else range_warning(svc, data.X)
    if extrapolation:      # as the window warns when it opens the model over these points
        print(warning_line(f"{Path(args.model).name}: {extrapolation}"), file=sys.stderr)
    return EXIT_OK


def _render_regression(args, model, out: Path) -> int:
    """A regressor of one feature over the points (x, y) of DATA, its label column the
    target: the curve, its tube and the support vectors."""
    if model.n_features_in_ != 1:
        raise DataError(tr("{name} has {n} features; render draws regressors of one feature "
                           "only").format(name=Path(args.model).name, n=model.n_features_in_))
    X, z, names = load_targets(args.data)
    require_features(X, names, 1, Path(args.data), "")
    app = offscreen_application()
    from ..app.widgets.pictures import save_picture
    from .regression_picture import regression_plot

    plot = regression_plot(X[:, 0], z, (names[0], tr("target")), model, args.width)
    plot.show()
    app.processEvents()
    save_picture(plot, out, args.width)
    print(wrote(out))
    return EXIT_OK


def _points(path, svc) -> Dataset:
    """The points to draw: a data set of classes; for a one-class model, points without
    labels (every CSV column a feature), drawn as the model's inliers (+1)."""
    if svc is None or not KINDS[svc.model_.kind].novelty:
        return load_dataset(path)
    X, names = load_unlabelled(path)
    return Dataset(X, np.zeros(len(X), dtype=np.int64), class_names=("1",),
                   feature_names=tuple(names), name=Path(path).stem)


def _draw(data, svc, width: int):
    """The canvas with the points (and the model) drawn, laid out for a picture width
    pixels wide (pictures.layout_width) and 3/4 as high."""
    app = offscreen_application()
    from ..app.widgets.canvas import Canvas
    from ..app.widgets.pictures import layout_width
    from ..drawing.decision_grid import GridSpec
    from ..drawing.model_frames import model_frame

    codes, names = _colour_codes(data, svc)
    canvas = Canvas()
    laid_out = layout_width(width)
    canvas.setFixedSize(laid_out, laid_out * 3 // 4)
    canvas.set_points(data.X[:, :2], codes, np.zeros(len(codes), dtype=bool), names)
    canvas.set_axis_names(data.feature_names[:2])
    canvas.show()
    app.processEvents()
    canvas.fit_view()
    if svc is not None:
        (x0, x1), (y0, y1) = canvas.view.viewRange()
        grid = min(max(200, width // 4), 600)
        drawn = svc if isinstance(svc, SVC) else svc.model_    # one-class: its model
        canvas.show_frame(model_frame(drawn, data.X, codes, GridSpec(x0, x1, y0, y1, grid,
                                                                    grid)))
    app.processEvents()
    canvas._app = app        # keep the application alive as long as the canvas
    return canvas


def _colour_codes(data, svc):
    """Class index per point and the class names the canvas colours and labels them by:
    the data's classes, or with a model the model's classes (the data's other classes
    after them)."""
    if svc is None:
        return np.asarray(data.y, dtype=np.intp), list(data.class_names)
    if KINDS[svc.model_.kind].novelty:      # the points, of the model's one class (+1)
        return np.ones(len(data.y), dtype=np.intp), [tr("outlier (-1)"), tr("points")]
    names = [str(c) for c in svc.model_.classes.tolist()]
    of_class = match_labels(data.class_names, svc.model_.classes)
    for k in np.flatnonzero(of_class < 0):
        of_class[k] = len(names)
        names.append(str(data.class_names[k]))
    return of_class[np.asarray(data.y)], names
