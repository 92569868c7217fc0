"""Avatar: lip-synced talking heads from a face and speech."""
