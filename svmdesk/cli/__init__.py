"""svmdesk's command line: open the window, or train, predict, evaluate, render and grid
search headless.

`svmdesk` alone, or with one data file, opens the window (svmdesk.app.main). A subcommand
runs without a display: `train` fits an SVC and writes a model file, `predict` prints CSV
predictions of a JSON model, `render` draws the canvas into a PNG or SVG file (Qt is
imported there only, on the offscreen platform), `grid` cross-validates a grid of C and
gamma values into a CSV table. Exit codes: 0 success, 2 bad input or
usage, 1 anything else; errors are one line on stderr unless --debug asks for the traceback.
"""
from .common import COMMANDS
from .main import build_parser, main, opens_window

__all__ = ["main", "build_parser", "opens_window", "COMMANDS"]
