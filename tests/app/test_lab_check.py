"""`svmdesk --lab-check`, as a teacher runs it on a laptop after the offline install: the
window opens, reads an example, trains it in the solver's own process and closes, saying so
in one line and exit code 0, in the language asked for."""
import os
import subprocess

import pytest

from ..cli.test_cli import installed_script


def lab_check(tmp_path, *options) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "SVMDESK_STATE_DIR": str(tmp_path / "state")}
    return subprocess.run([str(installed_script()), *options, "--lab-check"],
                          capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)


@pytest.mark.slow
def test_the_lab_check_trains_an_example_in_the_window(tmp_path):
    done = lab_check(tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout
    assert lines[0].startswith("svmdesk works here: the window trained iris-petals.csv "
                               "(150 points) in ")
    assert lines[0].endswith("support vectors.")


@pytest.mark.slow
def test_the_lab_check_speaks_japanese(tmp_path):
    done = lab_check(tmp_path, "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("svmdesk はこのコンピューターで動きます")


def test_the_help_names_the_lab_check():
    from svmdesk.cli.main import build_parser

    text = build_parser().format_help()
    assert "--lab-check" in text and "does the window train on this computer?" in text
