"""svmdesk's icon on the window, the task bar and the desktop: the SVG of
svmdesk.resources and its PNG drawings at the sizes desktops ask for."""
from __future__ import annotations

from functools import cache

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from ..resources import ICON, ICON_SIZES, icon_png, path


def draw_icon(size: int) -> QImage:
    """The SVG drawn at size x size pixels (tools/render-icons saves these as the PNGs)."""
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(path(ICON))).render(painter)
    painter.end()
    return image


@cache
def app_icon() -> QIcon:
    """The icon at every size of the PNG set (no SVG icon engine needed)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(icon_png(size)), QSize(size, size))
    return icon
