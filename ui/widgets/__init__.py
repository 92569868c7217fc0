"""Widgets any panel may use: labels, error lines, layouts, rows, pickers."""
