"""The lab tests: a wheelhouse built and installed from with no network, the frozen app.
They take minutes and the package index, so they run when asked (SVMDESK_LAB_TESTS=1, as
.ci/run asks in a step of its own), and are skipped without the index."""
import os
import subprocess
import sys

import pytest

ASKED = os.environ.get("SVMDESK_LAB_TESTS") == "1"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/lab/" in str(item.fspath).replace(os.sep, "/") and not ASKED:
            item.add_marker(pytest.mark.skip(reason="a lab test: SVMDESK_LAB_TESTS=1 runs it "
                                                    "(minutes, and the package index)"))


@pytest.fixture(scope="session")
def package_index(tmp_path_factory):
    """Skips the test when the package index does not answer (a laptop in the lab)."""
    probe = tmp_path_factory.mktemp("probe")
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                           "--only-binary=:all:", "--dest", str(probe), "qasync"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"no package index: {done.stderr.strip().splitlines()[-1:]}")
