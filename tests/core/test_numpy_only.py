"""The solver core is numpy only: importing it must not load any GUI package."""
import subprocess
import sys


def test_importing_the_core_loads_no_qt():
    code = ("import sys, svmdesk.core; "
            "loaded = [m for m in ('PySide6', 'pyqtgraph', 'qasync', 'sklearn', 'scipy') "
            "if m in sys.modules]; print(','.join(loaded))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""
