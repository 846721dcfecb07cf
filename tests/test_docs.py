"""The README, CONTRIBUTING.md and the user guide (docs/, in Japanese docs/ja/) as a reader
meets them: every link and picture resolves (a #section too), and every command and code block
runs as written, in a folder holding the example data sets; each Japanese page has its English
page, with the same sections and code. A block marked after its language (```sh long,
```sh network, ```sh window) takes long, needs the network or opens a window: it is checked
for syntax only. `text` blocks (output) and blocks without a language are not run."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUN = {"python", "sh"}                       # the languages a block runs in
SYNTAX_ONLY = {"long", "network", "window"}  # the marks of a block that is not run
TIMEOUT = 10                                 # s: the longest a block may take
FENCE = re.compile(r"^```(\S*)[ \t]*(.*)$")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def blocks(page: Path) -> list:
    """(language, marks, code, line) of each fenced block of `page`."""
    found, open_at, language, marks, code = [], None, "", set(), []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if fence and open_at is None:
            open_at, language, marks, code = number, fence.group(1), set(fence.group(2).split()), []
        elif fence:
            found.append((language, marks, "\n".join(code) + "\n", open_at))
            open_at = None
        elif open_at is not None:
            code.append(line)
    assert open_at is None, f"{page.name}: the block opened on line {open_at} never closes"
    return found


def prose(page: Path) -> str:
    """`page` without its code blocks and inline code (a link there is no link)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(page: Path) -> set:
    """The #sections of `page`, as the forge names its headings."""
    headings = re.findall(r"^#+ (.+)$", prose(page), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_link_and_picture_resolves(page):
    broken = []
    for target in LINK.findall(prose(page)):
        if re.match(r"[a-z]+:", target):          # https:, mailto: - not ours to check
            continue
        path, _, section = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (section and section not in anchors(file)):
            broken.append(target)
    assert broken == []


def test_the_readme_is_read_in_five_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8")) <= 8000


JAPANESE = ROOT / "docs" / "ja"


@pytest.mark.parametrize("guide", [ROOT / "docs", JAPANESE], ids=["en", "ja"])
def test_every_page_of_the_guide_is_linked_from_its_index(guide):
    index = guide / "README.md"
    linked = {(guide / target.partition("#")[0]).resolve() for target in LINK.findall(prose(index))}
    pages = {page for page in PAGES if guide in page.parents and page != index
             and (guide == JAPANESE or JAPANESE not in page.parents)}
    assert pages and pages - linked == set()


def test_the_readme_links_the_guide_in_both_languages():
    linked = set(LINK.findall(prose(ROOT / "README.md")))
    assert {"docs/README.md", "docs/ja/README.md"} <= linked


def _sections(page: Path) -> list:
    """The heading levels of `page`, in order (their words are the page's language's)."""
    return [len(hashes) for hashes in re.findall(r"^(#+) ", prose(page), flags=re.M)]


@pytest.mark.parametrize("page", sorted(JAPANESE.rglob("*.md")), ids=_name)
def test_each_japanese_page_has_its_english_page_with_the_same_sections(page):
    english = ROOT / "docs" / page.relative_to(JAPANESE)
    assert english.exists(), f"{_name(page)} has no English page at {_name(english)}"
    assert _sections(page) == _sections(english)
    assert [block[:3] for block in blocks(page)] == [block[:3] for block in blocks(english)]
    assert len(re.findall(r"[\u3040-\u30ff]", page.read_text(encoding="utf-8"))) > 100


RUNNABLE = [(page, language, code, line) for page in PAGES
            for language, marks, code, line in blocks(page)
            if language in RUN and not marks & SYNTAX_ONLY]
MARKED = [(page, language, code, line) for page in PAGES
          for language, marks, code, line in blocks(page)
          if language in RUN and marks & SYNTAX_ONLY]


def _id(case) -> str:
    page, _language, _code, line = case
    return f"{_name(page)}:{line}"


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict:
    """A reader's folder per page (the page's blocks run in order there, the later using what
    the earlier wrote): the example data sets beside it and under resources/examples/, as in
    a checkout."""
    made = {}

    def folder(page: Path) -> Path:
        if page not in made:
            made[page] = tmp_path_factory.mktemp(page.stem)
            examples = made[page] / "resources" / "examples"
            shutil.copytree(ROOT / "resources" / "examples", examples)
            for data in examples.glob("*.csv"):
                shutil.copy(data, made[page])
        return made[page]
    return folder


def _environment(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
               HOME=str(folder), QT_QPA_PLATFORM="offscreen", SVMDESK_LANG="en")
    return env


def _command(language: str, code: str) -> list:
    return [sys.executable, "-c", code] if language == "python" else ["bash", "-e", "-c", code]


@pytest.mark.parametrize("page", sorted({case[0] for case in RUNNABLE}), ids=_name)
def test_every_block_of_a_page_runs_as_written(page, folders):
    for _page, language, code, line in (case for case in RUNNABLE if case[0] == page):
        result = subprocess.run(_command(language, code), cwd=folders(page),
                                env=_environment(folders(page)), capture_output=True,
                                text=True, timeout=TIMEOUT)
        assert result.returncode == 0, f"{_name(page)}:{line}\n{code}\n{result.stderr}"


@pytest.mark.parametrize("case", MARKED, ids=_id)
def test_a_block_not_run_is_still_valid(case):
    page, language, code, line = case
    if language == "python":
        compile(code, f"{_name(page)}:{line}", "exec")
        return
    result = subprocess.run(["bash", "-n", "-c", code], capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr


def test_the_pages_have_blocks_of_every_kind():
    """The test above would pass on no blocks at all: the guide holds runnable Python and
    shell, and marked blocks."""
    languages = {language for _page, language, _code, _line in RUNNABLE}
    assert languages == RUN and len(RUNNABLE) >= 10 and MARKED
