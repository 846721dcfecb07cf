"""Everything that reads or writes a file: the File menu, what opening a file does to the
window, the kinds of file and recent files, autosave and recovery, the chooser of a wide
file's two columns, and dialogs that never block the event loop."""
