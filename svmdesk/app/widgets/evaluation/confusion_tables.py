"""The confusion matrices of the evaluation view as tables: counts or row shares in the
classes' colours, and the class report in the margins (precision under each column, recall
and F1 beside each row), sized so that the tab keeps its layout frame after frame."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractScrollArea, QSizePolicy, QTableWidget, QTableWidgetItem

from ....core import metrics
from ....i18n import tr
from ..canvas import class_color

CELL_PADDING = 8             # pixels beside a matrix cell's widest text


def matrix_table() -> QTableWidget:
    table = QTableWidget()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setToolTip(tr("Rows: the true class; columns: the predicted class. Each cell: "
                        "how many points, and their share of the row (the class's recall on "
                        "the diagonal). Under the matrix each predicted class's precision, "
                        "beside it each class's recall and F1."))
    table.setStyleSheet("font-size: 11px")
    table.verticalHeader().setDefaultSectionSize(17)
    table.horizontalHeader().setMinimumSectionSize(24)
    # as wide and tall as its cells, the plots beside it taking the rest (the tables are
    # the numbers a student reads); scrolled only when a tab is too small for a matrix of
    # many classes
    table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
    table.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Maximum)
    table.setMinimumSize(80, 60)
    return table


def fill_matrix(table: QTableWidget, matrix: np.ndarray | None, names: list,
                 classes: list, shares_shown: bool) -> None:
    """Counts (or, `shares_shown`, each cell's share of its row), the header in each
    class's colour; darker where more of the row falls; each cell's tooltip says both.
    The class report in the margins: precision under each column, recall and F1 beside
    each row. Without a matrix: the same table with its cells empty."""
    k = len(names)
    if matrix is None:
        _fill_blank(table, names)
        return
    table.setUpdatesEnabled(False)          # one repaint for the whole table
    table.setRowCount(k + 1)
    table.setColumnCount(k + 2)
    table.setHorizontalHeaderLabels([*names, tr("recall"), tr("F1")])
    table.setVerticalHeaderLabels([*names, tr("precision")])
    shares = metrics.normalised_rows(matrix)
    for i in range(k):
        for header in (table.horizontalHeaderItem(i), table.verticalHeaderItem(i)):
            if header is not None:
                header.setForeground(QBrush(class_color(classes[i])))
        for j in range(k):
            count, share = int(matrix[i, j]), f"{100 * shares[i, j]:.0f} %"
            item = _cell(share if shares_shown else str(count),
                         tr("{count} points of class {true} predicted {predicted}: {share} "
                            "of the class").format(count=count, true=names[i],
                                                   predicted=names[j], share=share))
            tint = class_color(classes[j], int(40 + 160 * shares[i, j]))
            item.setBackground(QBrush(tint if shares[i, j] > 0 else QColor("white")))
            table.setItem(i, j, item)
    _plain_report_headers(table, k)
    _fill_report(table, matrix, names)
    _size_columns(table, names, str(int(matrix.sum())))
    table.setUpdatesEnabled(True)


def _size_columns(table: QTableWidget, names: list, widest_count: str) -> None:
    """Each class's column as wide as its name or the widest number it can hold (the
    largest count, or a share), the recall and F1 columns as their headers or "0.00": the
    same widths frame after frame. Sized to the cells instead, the table grew and shrank
    with the counts, and each change laid the tab out again and redrew the curves' axes
    (20 ms at the end of a run)."""
    fits = table.fontMetrics().horizontalAdvance
    number = max(fits(widest_count), fits("100 %"), fits("0.00"))
    widths = [max(fits(name), number) for name in names]
    widths += [max(fits(tr("recall")), number), max(fits(tr("F1")), fits("0.00"))]
    header = table.horizontalHeader()
    for j, width in enumerate(widths[:table.columnCount()]):
        if header.sectionSize(j) != width + CELL_PADDING:
            header.resizeSection(j, width + CELL_PADDING)


def _fill_blank(table: QTableWidget, names: list) -> None:
    k = len(names)
    table.setUpdatesEnabled(False)
    table.setRowCount(k + 1)
    table.setColumnCount(k + 2)
    table.setHorizontalHeaderLabels([*names, tr("recall"), tr("F1")])
    table.setVerticalHeaderLabels([*names, tr("precision")])
    for i in range(k + 1):
        for j in range(k + 2):
            table.setItem(i, j, _cell("", ""))
    for i in range(k):
        for header in (table.horizontalHeaderItem(i), table.verticalHeaderItem(i)):
            if header is not None:
                header.setForeground(QBrush(class_color(i)))
    _plain_report_headers(table, k)
    _size_columns(table, names, "0")
    table.setUpdatesEnabled(True)


def _plain_report_headers(table: QTableWidget, k: int) -> None:
    """The report's headers in the text's colour (a header item keeps the colour it had
    when a larger matrix made it a class's)."""
    ink = QBrush(table.palette().text().color())
    for header in (table.horizontalHeaderItem(k), table.horizontalHeaderItem(k + 1),
                   table.verticalHeaderItem(k)):
        if header is not None:
            header.setForeground(ink)


def _fill_report(table: QTableWidget, matrix: np.ndarray, names: list) -> None:
    """Each class's recall and F1 in the last two columns, its precision in the last row;
    a dash where it is undefined (recall of a class without points, precision of one never
    predicted; scikit-learn reports 0 there)."""
    k = len(names)
    report = metrics.matrix_report(matrix)
    hits, points, called = np.diag(matrix), matrix.sum(axis=1), matrix.sum(axis=0)
    for i in range(k):
        table.setItem(i, k, _cell(_shown(report.recall[i], points[i]), tr(
            "Recall of {name}: {hits} of its {points} points are predicted {name} (the "
            "diagonal over the row).").format(name=names[i], hits=int(hits[i]),
                                               points=int(points[i]))))
        table.setItem(i, k + 1, _cell(_shown(report.f1[i], points[i] + called[i]), tr(
            "F1 of {name}: the harmonic mean of its precision and recall, 2PR / (P + R)."
            ).format(name=names[i])))
        table.setItem(k, i, _cell(_shown(report.precision[i], called[i]), tr(
            "Precision of {name}: the share of the points predicted {name} that are "
            "{name} (the diagonal over the column).").format(name=names[i])))
    for j in (k, k + 1):
        table.setItem(k, j, _cell("", ""))


def _shown(value: float, of: int) -> str:
    return f"{value:.2f}" if of else "–"


def _cell(text: str, tip: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setToolTip(tip)
    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    return item

