"""Qt runs offscreen in every test; set before any test module imports Qt."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
