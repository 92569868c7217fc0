"""Voice (text to speech): the voice library, cloning a voice from a clip, speaking text."""
