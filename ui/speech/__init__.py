"""Speech to text in the window: File → Transcribe…."""
