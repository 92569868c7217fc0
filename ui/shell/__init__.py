"""The window around the panels: main window, menus, status bar, overlay, start-up."""
