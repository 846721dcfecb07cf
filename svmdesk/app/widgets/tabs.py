"""Tabs whose titles show whole: Fusion draws an unselected tab's title two pixels lower than
the selected one's in a tab no taller, which cut off its descenders ("gamma" read "qamma" in
*Tune C and gamma*, in English and in Japanese). Here every title sits where the selected
one's does; the selected tab still stands out by its colour and its open edge."""
from __future__ import annotations

from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QTabWidget


class _UnshiftedTabs(QProxyStyle):
    def pixelMetric(self, metric, option=None, widget=None):  # noqa: N802 - Qt's name
        if metric == QStyle.PixelMetric.PM_TabBarTabShiftVertical:
            return 0
        return super().pixelMetric(metric, option, widget)


def whole_titles(tabs: QTabWidget) -> QTabWidget:
    """`tabs`, its bar drawn by the application's style with no title shifted down."""
    style = _UnshiftedTabs(QApplication.style().name())
    style.setParent(tabs.tabBar())          # lives and goes with the bar
    tabs.tabBar().setStyle(style)
    return tabs
