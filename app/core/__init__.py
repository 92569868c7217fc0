"""The app's foundation, used by every feature: paths, settings (and the types of the values
they hold for the features), devices, errors, texts, logging, storage primitives, audio devices
and performance figures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.core.about import app_version, runtime_versions
    from app.core.audio import devices as audio_devices
    from app.core.audio.devices import MAX_RECORD_SECONDS, AudioDevice, AudioDeviceError
    from app.core.audio.playback import Player
    from app.core.audio.recording import Level, Recorder, Recording
    from app.core.devices import (
        AUTO,
        DeviceInfo,
        compile_cache_dir_name,
        device_choices,
        discover_devices,
        resolve_device,
        tuning_properties,
    )
    from app.core.errors import BusyError, DatabaseError, ModelMissingError, StorageError, UserError
    from app.core.logging_setup import FILE_ONLY, configure_logging, stop_logging
    from app.core.model_choices import PIPELINE_TASKS, device_value_of, placement_of
    from app.core.paths import AppPaths
    from app.core.performance.metrics import MetricsBus
    from app.core.performance.system_stats import SystemSampler
    from app.core.runtime import bundle_root
    from app.core.settings import (
        DEFAULT_SYSTEM_PROMPT,
        ChatDefaults,
        PerformanceSettings,
        Settings,
        environment_problems,
        preset_key,
    )
    from app.core.settings_store import SettingsStore
    from app.core.storage.secrets import SecretStore
    from app.core.storage.state_files import read_state, write_state
    from app.core.texts import Text
    from pipelines.files import PRIVATE_FILE, check_input_file, remove_stale_temp_files, temp_folder

_WHERE = {
    "AUTO": "app.core.devices:AUTO",
    "AppPaths": "app.core.paths:AppPaths",
    "AudioDevice": "app.core.audio.devices:AudioDevice",
    "AudioDeviceError": "app.core.audio.devices:AudioDeviceError",
    "BusyError": "app.core.errors:BusyError",
    "ChatDefaults": "app.core.settings:ChatDefaults",
    "DEFAULT_SYSTEM_PROMPT": "app.core.settings:DEFAULT_SYSTEM_PROMPT",
    "DatabaseError": "app.core.errors:DatabaseError",
    "DeviceInfo": "app.core.devices:DeviceInfo",
    "FILE_ONLY": "app.core.logging_setup:FILE_ONLY",
    "Level": "app.core.audio.recording:Level",
    "MAX_RECORD_SECONDS": "app.core.audio.devices:MAX_RECORD_SECONDS",
    "MetricsBus": "app.core.performance.metrics:MetricsBus",
    "ModelMissingError": "app.core.errors:ModelMissingError",
    "PIPELINE_TASKS": "app.core.model_choices:PIPELINE_TASKS",
    "PRIVATE_FILE": "pipelines.files:PRIVATE_FILE",
    "PerformanceSettings": "app.core.settings:PerformanceSettings",
    "Player": "app.core.audio.playback:Player",
    "Recorder": "app.core.audio.recording:Recorder",
    "Recording": "app.core.audio.recording:Recording",
    "SecretStore": "app.core.storage.secrets:SecretStore",
    "Settings": "app.core.settings:Settings",
    "SettingsStore": "app.core.settings_store:SettingsStore",
    "StorageError": "app.core.errors:StorageError",
    "SystemSampler": "app.core.performance.system_stats:SystemSampler",
    "Text": "app.core.texts:Text",
    "UserError": "app.core.errors:UserError",
    "app_version": "app.core.about:app_version",
    "audio_devices": "app.core.audio.devices",
    "bundle_root": "app.core.runtime:bundle_root",
    "check_input_file": "pipelines.files:check_input_file",
    "compile_cache_dir_name": "app.core.devices:compile_cache_dir_name",
    "configure_logging": "app.core.logging_setup:configure_logging",
    "device_choices": "app.core.devices:device_choices",
    "device_value_of": "app.core.model_choices:device_value_of",
    "discover_devices": "app.core.devices:discover_devices",
    "environment_problems": "app.core.settings:environment_problems",
    "placement_of": "app.core.model_choices:placement_of",
    "read_state": "app.core.storage.state_files:read_state",
    "preset_key": "app.core.settings:preset_key",
    "remove_stale_temp_files": "pipelines.files:remove_stale_temp_files",
    "resolve_device": "app.core.devices:resolve_device",
    "runtime_versions": "app.core.about:runtime_versions",
    "stop_logging": "app.core.logging_setup:stop_logging",
    "temp_folder": "pipelines.files:temp_folder",
    "tuning_properties": "app.core.devices:tuning_properties",
    "write_state": "app.core.storage.state_files:write_state",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "AUTO",
    "DEFAULT_SYSTEM_PROMPT",
    "FILE_ONLY",
    "MAX_RECORD_SECONDS",
    "PIPELINE_TASKS",
    "PRIVATE_FILE",
    "AppPaths",
    "AudioDevice",
    "AudioDeviceError",
    "BusyError",
    "ChatDefaults",
    "DatabaseError",
    "DeviceInfo",
    "Level",
    "MetricsBus",
    "ModelMissingError",
    "PerformanceSettings",
    "Player",
    "Recorder",
    "Recording",
    "SecretStore",
    "Settings",
    "SettingsStore",
    "StorageError",
    "SystemSampler",
    "Text",
    "UserError",
    "app_version",
    "audio_devices",
    "bundle_root",
    "check_input_file",
    "compile_cache_dir_name",
    "configure_logging",
    "device_choices",
    "device_value_of",
    "discover_devices",
    "environment_problems",
    "placement_of",
    "preset_key",
    "read_state",
    "remove_stale_temp_files",
    "resolve_device",
    "runtime_versions",
    "stop_logging",
    "temp_folder",
    "tuning_properties",
    "write_state",
]
__getattr__ = lazy_exports(__name__, _WHERE)
