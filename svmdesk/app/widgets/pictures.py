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

from ...core.kinds import C_SVC, KINDS
from ...formats.atomic import write_atomic
from ...i18n import tr
from .canvas import RING_BASES
from .param_offers import offer

FORMATS = (".png", ".svg")
CAPTION_COLOUR = "#202020"


LAYOUT_WIDTH = 1000      # px: a figure drawn off screen for a picture is laid out at most
                         # this wide, then scaled to the picture's width (layout_width)


def layout_width(width: int) -> int:
    """How wide to lay out a figure drawn off screen (`svmdesk render`, the evaluation's
    pictures) for a picture `width` pixels wide: as wide as the picture up to LAYOUT_WIDTH;
    a wider picture is that layout scaled up, text, legend and markers with the axes."""
    return min(int(width), LAYOUT_WIDTH)


def save_picture(canvas, path, width: int, caption: str = "") -> Path:
    """Write the canvas (or another plot, or a layout of plots) to `path` (.png, or .svg)
    `width` pixels wide (an SVG of width 0: the size it has on the screen), with the caption
    under it when one is given."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(tr("{name}: a picture must end in .png or .svg").format(name=path.name))
    if suffix == ".png":
        write_atomic(path, png_bytes(image(canvas, width, caption)))
    else:
        write_atomic(path, svg_text(canvas, caption, width))
    return path


def image(canvas, width: int, caption: str = "") -> QImage:
    """The canvas drawn `width` pixels wide (its on-screen aspect), caption underneath.

    It is the canvas as laid out on the screen, scaled as a screen of that many device
    pixels per pixel would show it: text, legend (which ignores the view's scaling), markers
    and lines all grow with the width. pyqtgraph's ImageExporter scales the view instead,
    which leaves the legend at its on-screen size."""
    from pyqtgraph.exporters.Exporter import Exporter

    item = _drawn_item(canvas)
    source = item.sceneBoundingRect()
    scale = width / source.width()
    layout = _CaptionLayout(source.width(), caption)
    height = int(width * source.height() / source.width())
    out = QImage(int(width), height + round(layout.band * scale),
                 QImage.Format.Format_ARGB32)
    out.setDevicePixelRatio(scale)
    background = item.scene().views()[0].backgroundBrush()
    out.fill(background.color() if background.style() != Qt.BrushStyle.NoBrush
             else QColor(Qt.GlobalColor.transparent))
    exporter = Exporter(item)
    painter = QPainter(out)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # in export mode scatters draw each marker (at their size in on-screen pixels: the
        # image's pixel ratio scales them), not copies of pixmaps made for the screen
        exporter.setExportMode(True, {"antialias": True, "background": background.color(),
                                      "painter": painter, "resolutionScale": 1.0})
        item.scene().render(painter, QRectF(0, 0, source.width(), source.height()), source)
        layout.paint(painter, height / scale)
    finally:
        exporter.setExportMode(False)
        painter.end()
    out.setDevicePixelRatio(1.0)        # a plain picture of `width` pixels to whoever reads it
    return out


class _CaptionLayout:
    """A caption set in a picture `width` (on-screen) pixels wide: its font, its lines
    (broken between its parts, else between words, to keep a margin on either side) and
    the band under the picture that holds them with that margin all round."""

    def __init__(self, width: float, caption: str):
        self.width, self.font = width, _caption_font(width)
        metrics = QFontMetricsF(self.font)
        self.margin = max(float(self.font.pixelSize()), 0.02 * width)
        self.lines = _wrapped(caption, metrics, width - 2 * self.margin) if caption else []
        self.spacing, self.ascent = metrics.lineSpacing(), metrics.ascent()
        self.band = (2 * self.margin + len(self.lines) * self.spacing) if self.lines else 0.0

    def paint(self, painter: QPainter, top: float) -> None:
        painter.setFont(self.font)
        painter.setPen(QColor(CAPTION_COLOUR))
        for k, line in enumerate(self.lines):
            painter.drawText(QRectF(self.margin, top + self.margin + k * self.spacing,
                                    self.width - 2 * self.margin, self.spacing),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, line)

    def svg(self, x0: float, top: float) -> str:
        return "".join(
            f'<text x="{x0 + self.width / 2:g}" '
            f'y="{top + self.margin + k * self.spacing + self.ascent:g}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="{self.font.pixelSize()}" '
            f'fill="{CAPTION_COLOUR}">{escape(line)}</text>'
            for k, line in enumerate(self.lines))


def _wrapped(caption: str, metrics: QFontMetricsF, room: float) -> list:
    """The caption in lines at most `room` wide: broken between its parts (' · '), a part
    too long for a line between its words, a word too long elided."""
    lines: list = []
    for part in caption.split(" · "):
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and metrics.horizontalAdvance(joined) <= room:
            lines[-1] = joined
        elif metrics.horizontalAdvance(part) <= room:
            lines.append(part)
        else:
            line = ""
            for word in part.split(" "):
                longer = f"{line} {word}" if line else word
                if line and metrics.horizontalAdvance(longer) > room:
                    lines.append(line)
                    line = word
                else:
                    line = longer
            lines.append(line)
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, room) for line in lines]


def png_bytes(picture: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stub asks for bytes here, yet the binding takes the format as str only
    if not picture.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError(tr("the picture could not be encoded as PNG"))
    buffer.close()
    return bytes(data.data())


def svg_text(canvas, caption: str = "", width: int = 0) -> str:
    """The canvas as SVG, in its on-screen pixels, shown `width` pixels wide (0: as on the
    screen): the whole drawing scales, legend and text with it; a caption becomes text
    lines in a band added below it."""
    import pyqtgraph.exporters as exporters

    exporter = exporters.SVGExporter(_drawn_item(canvas))
    with _svg_close_path_fix():
        svg = exporter.export(toBytes=True)
    svg = bytes(svg).decode("utf-8")
    return _sized(_with_caption(svg, caption) if caption else svg, width)


def _drawn_item(picture):
    """What to export of a picture: a plot's PlotItem (the canvas, a PlotWidget), or every
    plot of a GraphicsLayoutWidget together (its layout, `ci`)."""
    import pyqtgraph as pg

    return picture.ci if isinstance(picture, pg.GraphicsLayoutWidget) else picture.plotItem


def copy_to_clipboard(canvas, width: int, caption: str = "") -> None:
    QApplication.clipboard().setImage(image(canvas, width, caption))


def _caption_font(width: float) -> QFont:
    """The caption's font in a picture `width` (on-screen) pixels wide."""
    font = QFont()
    font.setPixelSize(max(11, round(width / 70)))
    return font


_VIEW_BOX = re.compile(
    r'viewBox\s*=\s*"\s*([-\d.]+)[\s,]+([-\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')


def _svg_head(svg: str):
    """The SVG's opening tag (a match) and its viewBox's match, or None for either."""
    head = re.search(r"<svg\b[^>]*>", svg)
    return head, (_VIEW_BOX.search(head.group(0)) if head else None)


def _with_caption(svg: str, caption: str) -> str:
    """Grow the SVG's viewBox (and height, if it has one) by a band holding the caption."""
    head, box = _svg_head(svg)
    if head is None or box is None:
        return svg                                  # an unexpected header: no caption
    tag = head.group(0)
    x0, y0, width, height = (float(v) for v in box.groups())
    layout = _CaptionLayout(width, caption)
    band = layout.band
    tag = tag.replace(box.group(0), f'viewBox="{x0:g} {y0:g} {width:g} {height + band:g}"')
    size = re.search(r'\bheight\s*=\s*"([\d.]+)(px)?"', tag)
    if size:
        tag = tag.replace(size.group(0), f'height="{float(size.group(1)) + band:g}px"')
    bottom = y0 + height
    text = (f'<rect x="{x0:g}" y="{bottom:g}" width="{width:g}" height="{band:g}" '
            f'fill="white"/>' + layout.svg(x0, bottom))
    svg = svg[:head.start()] + tag + svg[head.end():]
    end = svg.rfind("</svg>")
    return svg[:end] + text + "\n" + svg[end:]


def _sized(svg: str, width: int) -> str:
    """The SVG shown `width` pixels wide and as high as its viewBox's aspect says (its
    drawing scaled, whatever its units); width 0: as it is."""
    head, box = _svg_head(svg)
    if not width or head is None or box is None:
        return svg
    box_width, box_height = float(box.group(3)), float(box.group(4))
    tag = re.sub(r'\s(width|height)\s*=\s*"[^"]*"', "", head.group(0))
    tag = tag[:-1].rstrip("/ ") + (f' width="{int(width)}" '
                                   f'height="{width * box_height / box_width:.6g}">')
    return svg[:head.start()] + tag + svg[head.end():]


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
    if reading.fractions is not None and KINDS[work.trained_kind].novelty:
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
    if len(frame.scene.support):                   # what their rings' sizes say
        parts.append(tr(RING_BASES[frame.scene.ring_basis]))
    return " · ".join(parts)


def settings_parts(params: dict, kind: str) -> list:
    """The settings that shape a model, in words: its kind (unless C-SVC), solver, kernel
    and the parameters the catalog says shape it ('C = 10', 'gamma = scale')."""
    table = KINDS[kind].table
    solver, kernel = table.solvers[params["solver"]], table.kernels[params["kernel"]]
    # C-SVC, the default, is named by nothing
    parts = [tr(KINDS[kind].name)] if kind != C_SVC.key else []
    parts += [tr(solver.title), tr("{kernel} kernel").format(kernel=tr(kernel.title))]
    # a yes-or-no setting is named when it is on ('probabilities (Platt)'), never '= 0'
    said = [_said(param, value, kind) for param, value in table.used(params, shapes=("model",))
            if value is not False]
    return parts + said


def _said(param, value, kind: str) -> str:
    """A parameter in a caption: 'C = 10', 'gamma = scale', what its None means, or the
    name of a setting that is on (as the window offers it for `kind`)."""
    if param.none and (value is None or value == param.none_value):
        return param.none
    if value is True:
        control = offer(kind, param.name)
        return tr(control.label) if control and control.label else param.name
    return f"{param.name} = {value if isinstance(value, str) else format(value, 'g')}"
