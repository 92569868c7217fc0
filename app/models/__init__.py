"""Models: what a folder holds, the catalog and the installed models, hub downloads, conversion
and quantization, and the private toolchain conversion runs in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.core.model_tasks import ModelTask
    from app.models.bundled import (
        DEFAULT_EMBEDDER,
        ConversionToolchainMissingError,
        EmbedderNotSetUpError,
        SetupProgress,
        default_embedder_dir,
        embedder_installed,
        install_default_embedder,
    )
    from app.models.catalog import CatalogEntry, assets_dir, filter_catalog, load_catalog
    from app.models.catalog_download import download_entry, installed_copy
    from app.models.contracts import folder_size, missing_files, weight_precision
    from app.models.convert import Converter, ConvertProgress, convert_model
    from app.models.convert_plan import (
        CHECKPOINT_SUFFIXES,
        DEFAULT_VOCODER,
        JOB_TASKS,
        LICENCE_NOTES,
        OWN_TASKS,
        ConvertRequest,
        Weights,
        plan_conversion,
    )
    from app.models.disk_space import DiskUse, disk_use
    from app.models.download import Downloader
    from app.models.download_meter import DownloadProgress
    from app.models.gguf_download import download_gguf
    from app.models.gguf_facts import GgufFacts
    from app.models.inspect import context_length, detect_task, embedding_length
    from app.models.kokoro_install import convert_installed, needs_conversion
    from app.models.recommend import (
        Recommendation,
        machine_facts,
        nothing_fits,
        recommend_picture_model,
    )
    from app.models.recommend import recommend as recommend_models
    from app.models.registry import InstalledModel, ModelRegistry, Removal
    from app.models.toolchain_env import (
        MISSING,
        PRIVATE,
        ToolchainMissingError,
        ToolchainStatus,
        toolchain_status,
    )
    from app.models.toolchain_install import (
        InstallOptions,
        InstallProgress,
        install_toolchain,
        remove_toolchain,
    )
    from app.models.toolchain_requirements import DISK_BYTES, DOWNLOAD_BYTES, size_text
    from app.models.wheel_download import convert_wheel_file

_WHERE = {
    "CHECKPOINT_SUFFIXES": "app.models.convert_plan:CHECKPOINT_SUFFIXES",
    "CatalogEntry": "app.models.catalog:CatalogEntry",
    "ConversionToolchainMissingError": "app.models.bundled:ConversionToolchainMissingError",
    "ConvertProgress": "app.models.convert:ConvertProgress",
    "ConvertRequest": "app.models.convert_plan:ConvertRequest",
    "Converter": "app.models.convert:Converter",
    "DEFAULT_EMBEDDER": "app.models.bundled:DEFAULT_EMBEDDER",
    "DEFAULT_VOCODER": "app.models.convert_plan:DEFAULT_VOCODER",
    "DISK_BYTES": "app.models.toolchain_requirements:DISK_BYTES",
    "DOWNLOAD_BYTES": "app.models.toolchain_requirements:DOWNLOAD_BYTES",
    "DiskUse": "app.models.disk_space:DiskUse",
    "DownloadProgress": "app.models.download_meter:DownloadProgress",
    "Downloader": "app.models.download:Downloader",
    "EmbedderNotSetUpError": "app.models.bundled:EmbedderNotSetUpError",
    "GgufFacts": "app.models.gguf_facts:GgufFacts",
    "InstallOptions": "app.models.toolchain_install:InstallOptions",
    "InstallProgress": "app.models.toolchain_install:InstallProgress",
    "InstalledModel": "app.models.registry:InstalledModel",
    "JOB_TASKS": "app.models.convert_plan:JOB_TASKS",
    "LICENCE_NOTES": "app.models.convert_plan:LICENCE_NOTES",
    "MISSING": "app.models.toolchain_env:MISSING",
    "ModelRegistry": "app.models.registry:ModelRegistry",
    "ModelTask": "app.core.model_tasks:ModelTask",
    "OWN_TASKS": "app.models.convert_plan:OWN_TASKS",
    "PRIVATE": "app.models.toolchain_env:PRIVATE",
    "Recommendation": "app.models.recommend:Recommendation",
    "Removal": "app.models.registry:Removal",
    "SetupProgress": "app.models.bundled:SetupProgress",
    "ToolchainMissingError": "app.models.toolchain_env:ToolchainMissingError",
    "ToolchainStatus": "app.models.toolchain_env:ToolchainStatus",
    "Weights": "app.models.convert_plan:Weights",
    "assets_dir": "app.models.catalog:assets_dir",
    "context_length": "app.models.inspect:context_length",
    "convert_installed": "app.models.kokoro_install:convert_installed",
    "convert_model": "app.models.convert:convert_model",
    "convert_wheel_file": "app.models.wheel_download:convert_wheel_file",
    "default_embedder_dir": "app.models.bundled:default_embedder_dir",
    "detect_task": "app.models.inspect:detect_task",
    "disk_use": "app.models.disk_space:disk_use",
    "download_entry": "app.models.catalog_download:download_entry",
    "download_gguf": "app.models.gguf_download:download_gguf",
    "embedder_installed": "app.models.bundled:embedder_installed",
    "embedding_length": "app.models.inspect:embedding_length",
    "filter_catalog": "app.models.catalog:filter_catalog",
    "folder_size": "app.models.contracts:folder_size",
    "install_default_embedder": "app.models.bundled:install_default_embedder",
    "install_toolchain": "app.models.toolchain_install:install_toolchain",
    "installed_copy": "app.models.catalog_download:installed_copy",
    "load_catalog": "app.models.catalog:load_catalog",
    "machine_facts": "app.models.recommend:machine_facts",
    "missing_files": "app.models.contracts:missing_files",
    "needs_conversion": "app.models.kokoro_install:needs_conversion",
    "nothing_fits": "app.models.recommend:nothing_fits",
    "plan_conversion": "app.models.convert_plan:plan_conversion",
    "recommend_models": "app.models.recommend:recommend",
    "recommend_picture_model": "app.models.recommend:recommend_picture_model",
    "remove_toolchain": "app.models.toolchain_install:remove_toolchain",
    "size_text": "app.models.toolchain_requirements:size_text",
    "toolchain_status": "app.models.toolchain_env:toolchain_status",
    "weight_precision": "app.models.contracts:weight_precision",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "CHECKPOINT_SUFFIXES",
    "DEFAULT_EMBEDDER",
    "DEFAULT_VOCODER",
    "DISK_BYTES",
    "DOWNLOAD_BYTES",
    "JOB_TASKS",
    "LICENCE_NOTES",
    "MISSING",
    "OWN_TASKS",
    "PRIVATE",
    "CatalogEntry",
    "ConversionToolchainMissingError",
    "ConvertProgress",
    "ConvertRequest",
    "Converter",
    "DiskUse",
    "DownloadProgress",
    "Downloader",
    "EmbedderNotSetUpError",
    "GgufFacts",
    "InstallOptions",
    "InstallProgress",
    "InstalledModel",
    "ModelRegistry",
    "ModelTask",
    "Recommendation",
    "Removal",
    "SetupProgress",
    "ToolchainMissingError",
    "ToolchainStatus",
    "Weights",
    "assets_dir",
    "context_length",
    "convert_installed",
    "convert_model",
    "convert_wheel_file",
    "default_embedder_dir",
    "detect_task",
    "disk_use",
    "download_entry",
    "download_gguf",
    "embedder_installed",
    "embedding_length",
    "filter_catalog",
    "folder_size",
    "install_default_embedder",
    "install_toolchain",
    "installed_copy",
    "load_catalog",
    "machine_facts",
    "missing_files",
    "needs_conversion",
    "nothing_fits",
    "plan_conversion",
    "recommend_models",
    "recommend_picture_model",
    "remove_toolchain",
    "size_text",
    "toolchain_status",
    "weight_precision",
]
__getattr__ = lazy_exports(__name__, _WHERE)
