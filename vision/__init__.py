"""Camera dice reading with OpenCV."""
