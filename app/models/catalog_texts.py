# ruff: noqa: E501 - the descriptions are kept whole, as the catalog has them
"""The model catalog's descriptions, for translation (made by
scripts/update_translations.py from assets/catalog.json; do not edit).

The window translates a description by its text (app.core.texts.Text); lupdate only reads
Python, so every description is listed here once."""

from app.core.texts import Text, tr

DESCRIPTIONS: tuple[Text, ...] = (
    tr("768-d English embeddings: better retrieval than the bundled MiniLM, 3x slower."),
    tr(
        "8B vision model: detailed answers about photos and several images at once; wants 10 GB of memory."
    ),
    tr("A capable general model; wants 8 GB of free memory."),
    tr(
        "A natural voice in one click: five preset voices and blends of two, about twice as fast as real time on two CPU cores; fetched from PyPI and converted in the app."
    ),
    tr(
        "A tiny decoder for Stable Diffusion 1.x/2.x and LCM latents: full-size live previews at every step for a fraction of the VAE's time (unconfirmed offline: its files were not seen here)."
    ),
    tr("Channel-wise symmetric INT4: the layout the NPU needs."),
    tr("Cross-encoder that re-orders knowledge search results more precisely."),
    tr("Describes and answers questions about images; small enough for any AI PC."),
    tr("Describes images in more detail than the 1B; still quick on a laptop."),
    tr("Good multilingual chat for its size; fast on a laptop CPU."),
    tr("Google's multilingual chat model that also sees images (Gemma terms of use)."),
    tr(
        "Measures how alike a voice sounds to its clip (“sounds 0.83 like the clip”); fetched from PyPI and converted in the app, no tools needed."
    ),
    tr("Meta's 3B chat model: better answers, still quick (Llama 3.2 Community License)."),
    tr("Meta's small multilingual chat model (Llama 3.2 Community License)."),
    tr("Microsoft's 3.8B model; good at English reasoning and code, 128k context."),
    tr(
        "Near large-v3 accuracy at several times its speed; for transcribing files and subtitles. English."
    ),
    tr(
        "Noticeably more accurate than base, still faster than real time on a laptop CPU; 99 languages."
    ),
    tr("Qwen's smallest instruct model, from Qwen's own GGUF repository; many languages."),
    tr("Qwen3's smallest model with thinking mode, from Qwen's own GGUF repository."),
    tr("Reads charts, documents and screenshots."),
    tr(
        "Sharper 512×512 pictures in 1 to 4 steps; converted in the app (needs 16 GB of memory to convert); non-commercial licence."
    ),
    tr("Small English chat model; quick on any CPU."),
    tr("Small Qwen3 with thinking mode; a good everyday model on 8 GB machines."),
    tr("Small and fast: for trying the app on modest hardware."),
    tr("Speech recognition for voice input in chat, 99 languages."),
    tr("Strong at text in images (OCR), documents and charts; research licence."),
    tr("Strong general chat and reasoning for its size; a good default on 16 GB laptops."),
    tr(
        "Strong reasoning for its size; the 4-bit file of Qwen's own GGUF repository (its Q4_K and Q6_K weights load here)."
    ),
    tr("Stronger answers and code; its licence is for research, not commercial use."),
    tr(
        "Text to speech in any cloned voice; converted in the app (no OpenVINO export is published)."
    ),
    tr(
        "The OpenVINO organisation's own Kokoro export (unconfirmed offline: its files and voices were not seen here)."
    ),
    tr(
        "The best pictures and text in pictures here, in 4 steps; wants 16 GB of memory and is far faster on a GPU."
    ),
    tr("The classic 512×512 model with negative prompts; 20 to 50 steps, so slower than LCM."),
    tr(
        "The fast default for pictures: 512×512 in 4 to 8 steps (latent consistency), also for editing a picture; no negative prompt."
    ),
    tr("The largest Qwen3 here; wants 10 GB of free memory."),
    tr("The largest SmolLM2: better English answers, still light."),
    tr("The most accurate Whisper, 99 languages; wants a GPU or patience for long files."),
    tr(
        "The smallest Whisper: dictation on any computer, about 40x faster than real time on two CPU cores; less accurate with accents and noise."
    ),
    tr("Tiny and instant: for trying GGUF files on any machine; short answers only."),
    tr(
        "Trained to repaint a masked part and to extend a picture seamlessly; draws from a prompt too (unconfirmed offline: its files were not seen here)."
    ),
    tr("Turns a 5-30 s clip into the voice embedding SpeechT5 speaks with; converted in the app."),
)
