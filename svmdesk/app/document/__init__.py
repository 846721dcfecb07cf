"""The document the window edits: the points (one owner, changed only through undoable
commands), the model over them and the session file they belong to, and what a person's
clicks, drags and the Data box do to them."""
