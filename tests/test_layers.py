"""The layering is a contract (pyproject.toml, [tool.importlinter]): the core at the bottom,
the file formats and the view maths on it, the app above them and the command line on top;
core, formats and view never import Qt. A broken contract fails here with import-linter's
report of the offending imports."""
import shutil
import subprocess
from pathlib import Path


def test_the_packages_keep_their_layers_and_the_lower_ones_stay_free_of_qt():
    command = shutil.which("lint-imports")
    assert command, "import-linter is a test dependency: pip install -e '.[test]'"
    out = subprocess.run([command], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout
