"""What the canvas draws, without Qt: the decision grid, contours, region pictures and the
frames the training worker and a view's regrid hand the window (numpy only)."""
