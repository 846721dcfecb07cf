"""The window's frame: the main window, which builds the rooms and wires them together (it
alone knows them all), and where it opens on the screen."""
