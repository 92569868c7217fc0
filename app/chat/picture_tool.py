"""*Make a picture*: the chat model's tool for drawing with the image-generation model.

Offered in a conversation's tools (under the app's own tool server, :mod:`app.mcp.builtin`)
while an image-generation model is installed. The model writes the prompt from the
conversation; the picture is drawn at the image model's own steps and size (square, or a
portrait or landscape shape), kept in the Create gallery with its settings, and handed to the
answer, which keeps it with the conversation and shows it. The model reads one line back:
what was drawn, at what size and seed — never the picture itself.
"""

from __future__ import annotations

from typing import Any

from app.images.picture_metadata import png_bytes
from app.images.service import ImageService, PictureOptions
from app.mcp.builtin import BuiltinOutcome, builtin_info
from app.mcp.listings import ToolInfo
from pipelines.core import CancelToken, PipelineError
from pipelines.images import ImageRequest

PICTURE_TOOL = "make_picture"
SHAPES: dict[str, tuple[int | None, int | None]] = {
    "square": (None, None),  # the model's own size (512² for Stable Diffusion 1.5 and LCM)
    "portrait": (512, 768),
    "landscape": (768, 512),
}
MAX_PROMPT_CHARS = 1000
"""A picture prompt longer than this is no picture description (CLIP reads 77 tokens)."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "prompt": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_PROMPT_CHARS,
            "description": "What the picture shows, in a short English phrase: subject, "
            "setting, style, light (e.g. 'a red fox in snow at dawn, watercolour').",
        },
        "shape": {"type": "string", "enum": list(SHAPES), "description": "Default: square."},
    },
    "required": ["prompt"],
    "additionalProperties": False,
}
DESCRIPTION = (
    "Draw a picture from a text description with the local image model; the user sees it "
    "under your answer. Use it when the user asks for a picture, drawing, photo or image."
)


class PictureTool:
    """The built-in tool :data:`PICTURE_TOOL` over the image service."""

    def __init__(self, images: ImageService) -> None:
        self._images = images
        self._info = builtin_info(PICTURE_TOOL, DESCRIPTION, SCHEMA)

    @property
    def info(self) -> ToolInfo:
        """The tool as conversations see it."""
        return self._info

    def available(self) -> bool:
        """Whether an image-generation model is there to draw with."""
        try:
            self._images.model_folder()
        except PipelineError:
            return False
        return True

    def run(self, arguments: dict[str, Any], cancel: CancelToken) -> BuiltinOutcome:
        """Draw the picture; a failure (a model that cannot load, another picture being made)
        is a ``failed`` outcome with its sentence.

        Raises:
            Cancelled: ``cancel`` was set (nothing is kept).
        """
        prompt = str(arguments["prompt"]).strip()
        width, height = SHAPES.get(str(arguments.get("shape", "square")), SHAPES["square"])
        request = ImageRequest(prompt, width=width, height=height)
        try:
            created = self._images.text_to_image(
                request, picture_options=PictureOptions(cancel=cancel)
            )
        except PipelineError as error:
            return BuiltinOutcome("failed", str(error))
        settings = created.result.settings
        pictures = tuple(png_bytes(picture, settings) for picture in created.result.pictures)
        # For the model to read (in English, as the tool's description): not translated.
        size = f"{settings.width}×{settings.height}"
        text = (
            f"Drew a {size} picture of “{prompt}” (seed {settings.seed}, {settings.steps} "
            f"steps, model {settings.model}); the user sees it under this answer."
        )
        if created.problem:
            text += " " + created.problem
        return BuiltinOutcome("done", text, pictures)
