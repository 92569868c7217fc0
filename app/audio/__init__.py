"""Sound devices: listing outputs and inputs, playing and recording."""
