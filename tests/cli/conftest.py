"""The command line speaks the language SVMDESK_LANG or the system's locale asks for: each
test here runs in English whatever the machine exports, unless it asks for another, and
leaves the language as it found it (commands run in this process)."""
import pytest

from svmdesk.i18n import set_language


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("SVMDESK_LANG", "en")
    yield
    set_language("en")
