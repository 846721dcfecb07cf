"""What the window is made of on screen: the canvas, the charts, the readout, the side panel
and its parameter rows, the notices and the log, and pictures of the canvas. Widgets draw
what they are handed and report what the user asks for; they never start a run or open a
file themselves."""
