"""Speech (speech to text): dictation, transcription of files, listening with voice activity
detection."""
