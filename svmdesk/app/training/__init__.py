"""A training run: its controller (one explicit state and the transitions from it), the worker
that trains on its own thread and makes the frames, and what the window shows of the run."""
