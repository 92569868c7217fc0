"""What the performance overlay shows: generation metrics and CPU/RAM readings."""
