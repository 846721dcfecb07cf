"""Every dialog of the window opens with open() or show() and answers through callbacks:
`exec()` would start a nested event loop that blocks a test (and the autosave timer, the
worker's frames) until a person answers."""
import re
from pathlib import Path

import svmdesk.app

APP = Path(svmdesk.app.__file__).parent
BLOCKING = re.compile(r"\.exec_?\(|\bQMessageBox\.(information|warning|critical|question)\(")


def test_no_module_of_the_window_opens_a_blocking_dialog():
    offenders = [f"{path.relative_to(APP)}:{n}: {line.strip()}"
                 for path in sorted(APP.rglob("*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if BLOCKING.search(line)]
    assert not offenders, "\n".join(offenders)
