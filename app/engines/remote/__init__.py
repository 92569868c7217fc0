"""Remote engines: chat on an OpenAI-compatible endpoint (OVMS, vLLM, another OV Studio),
chosen like a device ("Remote: name"). Qt-free; the client is the official ``openai`` package."""
