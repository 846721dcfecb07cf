"""The layering is a contract (pyproject.toml, [tool.importlinter]): the core at the bottom,
the file formats and the view maths on it, the app above them and the command line on top;
core, formats and view never import Qt. A broken contract fails here with import-linter's
report of the offending imports.

import-linter runs in this process, so the test needs no `lint-imports` on PATH (a venv not
activated). Through its use case rather than importlinter.cli.lint_imports: the latter
reconfigures logging with logging.config.dictConfig, which disables every logger already
made in the process (svmdesk's own among them) for the rest of the suite."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_packages_keep_their_layers_and_the_lower_ones_stay_free_of_qt(capsys):
    try:                                           # a failure, not a skip: the contract holds
        import importlinter.configuration
        from importlinter.application import use_cases
    except ImportError:
        pytest.fail("import-linter is a test dependency: pip install -e '.[test]'")

    importlinter.configuration.configure()        # as importlinter.cli does on import
    passed = use_cases.lint_imports(config_filename=str(ROOT / "pyproject.toml"),
                                    cache_dir=None, no_logo=True)
    out = capsys.readouterr()
    assert passed, out.out + out.err
    assert "0 broken" in out.out
