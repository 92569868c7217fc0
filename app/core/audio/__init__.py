"""Microphones and speakers: device lists, recording and playback."""
