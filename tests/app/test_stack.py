"""The Qt stack we run on: guards against the PySide6 6.12.0 refcount bug on Python 3.11:
every call of a method returning nothing lowers None's reference count, so a long-running
window would abort with 'Fatal Python error: none_dealloc'."""
import sys

from PySide6 import QtGui


def test_void_methods_do_not_leak_references_to_none():
    path = QtGui.QPainterPath()
    before = sys.getrefcount(None)
    for _ in range(1000):
        path.lineTo(1.0, 2.0)
    assert sys.getrefcount(None) - before > -100   # -1000 on the broken release
