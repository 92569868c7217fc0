"""Where models run, in the window: the remote endpoints dialog."""
