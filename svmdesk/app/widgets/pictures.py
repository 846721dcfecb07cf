"""Pictures of the canvas: PNG at any width, SVG, an optional caption, the clipboard.
Any PlotWidget or GraphicsLayoutWidget (the evaluation's figures) is saved the same way.

The window's File menu and `svmdesk render` both draw through here. Files are written
atomically (a crash mid-save leaves the old picture, never half a new one).
"""
from __future__ import annotations

import contextlib
import importlib
import re
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QApplication

from ...core import catalog
from ...formats.atomic import write_atomic
from ...i18n import N_, tr

FORMATS = (".png", ".svg")
# How a caption names a kind of machine other than C-SVC (the default, named by nothing)
KIND_CAPTIONS = {"nu_svc": N_("ν-SVC"), "one_class": N_("one-class SVM"),
                 "epsilon_svr": N_("ε-SVR"), "nu_svr": N_("ν-SVR")}
CAPTION_COLOUR = "#202020"


def save_picture(canvas, path, width: int, caption: str = "") -> Path:
    """Write the canvas (or another plot, or a layout of plots) to `path` (.png at `width`
    pixels, or .svg), with the caption under it when one is given."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(tr("{name}: a picture must end in .png or .svg").format(name=path.name))
    if suffix == ".png":
        write_atomic(path, png_bytes(image(canvas, width, caption)))
    else:
        write_atomic(path, svg_text(canvas, caption))
    return path


def image(canvas, width: int, caption: str = "") -> QImage:
    """The canvas drawn `width` pixels wide (its on-screen aspect), caption underneath."""
    import pyqtgraph.exporters as exporters

    exporter = exporters.ImageExporter(_drawn_item(canvas))
    exporter.parameters()["width"] = int(width)
    picture = exporter.export(toBytes=True)
    if not caption:
        return picture
    font = _caption_font(picture.width())
    band = int(QFontMetricsF(font).height() * 1.8)
    out = QImage(picture.width(), picture.height() + band, QImage.Format.Format_ARGB32)
    out.fill(QColor("white"))
    painter = QPainter(out)
    try:
        painter.drawImage(0, 0, picture)
        painter.setFont(font)
        painter.setPen(QColor(CAPTION_COLOUR))
        painter.drawText(QRectF(0, picture.height(), picture.width(), band),
                         Qt.AlignmentFlag.AlignCenter, caption)
    finally:
        painter.end()
    return out


def png_bytes(picture: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stub asks for bytes here, yet the binding takes the format as str only
    if not picture.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError(tr("the picture could not be encoded as PNG"))
    buffer.close()
    return bytes(data.data())


def svg_text(canvas, caption: str = "") -> str:
    """The canvas as SVG; a caption becomes a text line in a band added below it."""
    import pyqtgraph.exporters as exporters

    exporter = exporters.SVGExporter(_drawn_item(canvas))
    with _svg_close_path_fix():
        svg = exporter.export(toBytes=True)
    svg = bytes(svg).decode("utf-8")
    return _with_caption(svg, caption) if caption else svg


def _drawn_item(picture):
    """What to export of a picture: a plot's PlotItem (the canvas, a PlotWidget), or every
    plot of a GraphicsLayoutWidget together (its layout, `ci`)."""
    import pyqtgraph as pg

    return picture.ci if isinstance(picture, pg.GraphicsLayoutWidget) else picture.plotItem


def copy_to_clipboard(canvas, width: int, caption: str = "") -> None:
    QApplication.clipboard().setImage(image(canvas, width, caption))


def _caption_font(width: int) -> QFont:
    font = QFont()
    font.setPixelSize(max(11, round(width / 70)))
    return font


def _with_caption(svg: str, caption: str) -> str:
    """Grow the SVG's viewBox (and height, if it has one) by a band holding the caption."""
    head = re.search(r"<svg\b[^>]*>", svg)
    tag = head.group(0) if head else ""
    box = re.search(r'viewBox\s*=\s*"\s*([-\d.]+)[\s,]+([-\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"',
                    tag)
    if head is None or box is None:
        return svg                                  # an unexpected header: no caption
    x0, y0, width, height = (float(v) for v in box.groups())
    font_px = max(11.0, round(width / 70))
    band = round(font_px * 1.8)
    tag = tag.replace(box.group(0), f'viewBox="{x0:g} {y0:g} {width:g} {height + band:g}"')
    size = re.search(r'\bheight\s*=\s*"([\d.]+)(px)?"', tag)
    if size:
        tag = tag.replace(size.group(0), f'height="{float(size.group(1)) + band:g}px"')
    bottom = y0 + height
    text = (f'<rect x="{x0:g}" y="{bottom:g}" width="{width:g}" height="{band}" fill="white"/>'
            f'<text x="{x0 + width / 2:g}" y="{bottom + band * 0.62:g}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="{font_px:g}" fill="{CAPTION_COLOUR}">'
            f"{escape(caption)}</text>")
    svg = svg[:head.start()] + tag + svg[head.end():]
    end = svg.rfind("</svg>")
    return svg[:end] + text + "\n" + svg[end:]


@contextlib.contextmanager
def _svg_close_path_fix():
    """pyqtgraph 0.14's SVGExporter reads path data as 'x,y' pairs only and fails on the 'Z'
    (close path) that Qt 6.10+ writes (pyqtgraph issue #3485). While exporting, every Z
    becomes a line back to the start of its subpath, which draws the same."""
    # by importlib: pyqtgraph.exporters.SVGExporter, as an attribute, is the class; Any: the
    # module's functions are looked up and replaced by name
    module: Any = importlib.import_module("pyqtgraph.exporters.SVGExporter")
    original = module.correctCoordinates

    def correct(node, defs, item, options):
        for path in node.getElementsByTagName("path"):
            path.setAttribute("d", _without_close_path(path.getAttribute("d")))
        return original(node, defs, item, options)

    module.correctCoordinates = correct
    try:
        yield
    finally:
        module.correctCoordinates = original


def _without_close_path(d: str) -> str:
    out, start = [], None
    for token in d.split():
        if token in ("Z", "z"):
            if start is not None:
                out.append("L" + start)
            continue
        if token[0] in "Mm":
            start = token[1:]
        out.append(token)
    return " ".join(out)


def caption(work, frame) -> str:
    """One line for a picture: the kind of machine (unless C-SVC), solver, kernel, the
    parameters that shape the model (the catalog says which), accuracy or the fraction
    outside, support vectors; the number of points before a model."""
    if work.fitted is None or frame is None:
        return tr("{n} points").format(n=len(work.points))
    parts = settings_parts(work.trained_params, work.trained_kind)
    reading = frame.reading
    if reading.fractions is not None and work.trained_kind == "one_class":
        low, high = reading.fractions.errors
        parts.append(tr("points outside: {percent}%").format(percent=f"{100 * high:.1f}"))
    if reading.fit is not None:
        parts.append(tr("train R² {r2}").format(r2=f"{reading.fit.r2:.3f}"))
        if reading.fit.r2_test is not None:
            parts.append(tr("test R² {r2}").format(r2=f"{reading.fit.r2_test:.3f}"))
        parts.append(tr("outside the tube: {percent}%").format(
            percent=f"{100 * reading.fit.outside:.1f}"))
    if reading.train_accuracy is not None:
        parts.append(tr("train accuracy {percent}%").format(
            percent=f"{100 * reading.train_accuracy:.1f}"))
    if reading.test_accuracy is not None:
        parts.append(tr("test {percent}%").format(percent=f"{100 * reading.test_accuracy:.1f}"))
    if reading.marks_outside is not None:
        parts.append(tr("{caught} of {marks} outlier marks outside").format(
            caught=reading.marks_outside[0], marks=reading.marks_outside[1]))
    parts.append(tr("{n} support vectors").format(n=len(frame.scene.support)))
    return " · ".join(parts)


def settings_parts(params: dict, kind: str) -> list:
    """The settings that shape a model, in words: its kind (unless C-SVC), solver, kernel
    and the parameters the catalog says shape it ('C = 10', 'gamma = scale')."""
    table = catalog.kind_table(kind)
    solver, kernel = table.solvers[params["solver"]], table.kernels[params["kernel"]]
    parts = [tr(KIND_CAPTIONS[kind])] if kind in KIND_CAPTIONS else []
    parts += [tr(solver.title), tr("{kernel} kernel").format(kernel=tr(kernel.title))]
    # a yes-or-no setting is named when it is on ('probabilities (Platt)'), never '= 0'
    return parts + [_said(param, value) for param, value in table.used(params,
                                                                        shapes=("model",))
                    if value is not False]


def _said(param, value) -> str:
    """A parameter in a caption: 'C = 10', 'gamma = scale', what its None means, or the
    name of a setting that is on."""
    if param.none and (value is None or value == param.none_value):
        return param.none
    if value is True:
        return tr(param.control.label) if param.control and param.control.label else param.name
    return f"{param.name} = {value if isinstance(value, str) else format(value, 'g')}"
