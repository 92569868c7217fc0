"""The app's foundation, used by every feature: paths, settings, devices, errors, texts, logging,
storage primitives, audio devices and performance figures."""
