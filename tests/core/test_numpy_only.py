"""The solver core, the file formats and the view maths are numpy only: importing them must
not load a GUI package, nor scikit-learn or scipy (the oracles of the tests, never
dependencies), nor joblib (imported by the first parallel grid search: a fit never pays it)."""
import subprocess
import sys

import pytest

PACKAGES = ["svmdesk.core", "svmdesk.formats", "svmdesk.drawing"]


@pytest.mark.parametrize("package", PACKAGES)
def test_importing_it_loads_no_qt(package):
    code = (f"import sys, {package}; "
            "loaded = [m for m in ('PySide6', 'pyqtgraph', 'qasync', 'sklearn', 'scipy', "
            "'joblib') if m in sys.modules]; print(','.join(loaded))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""
