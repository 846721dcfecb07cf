"""`svmdesk train --script`: the script written beside the model fits it again in a fresh
Python (objective to 1e-9, every prediction exactly), for a classifier, a one-class SVM and
a regressor; a script path that is no .py is one line, exit code 2, nothing written."""
import json
import subprocess
import sys

import numpy as np
import pytest

from svmdesk.cli.train import split
from svmdesk.formats import load_model

from .test_cli import assert_one_line_error, run
from .test_train_kinds import files  # noqa: F401 - the data files, a fixture


@pytest.mark.parametrize("kind, data, extra", [
    ("c-svc", "classes.csv", ["--kernel", "rbf", "-C", "3", "--gamma", "0.5"]),
    ("one-class", "points.csv", ["--nu", "0.2"]),
    ("epsilon-svr", "targets.csv", ["-C", "2", "--epsilon", "0.05"]),
])
def test_the_script_fits_the_commands_model_again(files, kind, data, extra):  # noqa: F811
    tmp_path, X, z, labels = files
    result = run("train", data, "--type", kind, *extra, "--test-fraction", "0.25",
                 "--seed", "3", "--out", "m.json", "--script", "again.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "script:" in result.stdout and "again.py" in result.stdout
    done = subprocess.run([sys.executable, "again.py", "--json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    model = load_model(tmp_path / "m.json")
    np.testing.assert_allclose(said["objective"], np.asarray(model.objective_).tolist(),
                               rtol=1e-9, atol=1e-12)
    train, test = split(len(X), 0.25, 3)           # the script's points: training first
    order = np.concatenate([train, test])
    assert said["predictions"] == model.predict(X[order]).tolist()
    assert "test_score" in said or "test_outside" in said


def test_a_script_that_is_no_python_file_is_refused(files):  # noqa: F811
    tmp_path = files[0]
    result = run("train", "classes.csv", "--out", "m.json", "--script", "again.txt",
                 cwd=tmp_path)
    assert_one_line_error(result)
    assert "--script again.txt: the script must end in .py" in result.stderr
    assert not (tmp_path / "m.json").exists() and not (tmp_path / "again.txt").exists()
