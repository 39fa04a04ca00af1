"""Configuration: environment variables prefixed `GROUNDGATE_` and an optional `groundgate.toml`.

Only the entry points (`cli`, later `api`) read settings and build objects from them; the core
receives plain values. Precedence: init arguments > environment > `groundgate.toml` > defaults.
Nested keys use `__` in the environment: `GROUNDGATE_VERIFIER__LOW_CONFIDENCE_THRESHOLD=0.6`.

The TOML file is `./groundgate.toml`, or the path in `GROUNDGATE_CONFIG`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from groundgate.errors import ConfigurationError


class VerifierSettings(BaseModel):
    """Thresholds of the verifier and the offline checker."""

    model_config = ConfigDict(extra="forbid")  # a misspelt threshold must not pass silently

    low_confidence_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    """`LOW_CONFID` at or above this score is shown with a disclaimer; below it, one more round."""
    direct_support: float = Field(default=0.5, ge=0.0, le=1.0)
    """Offline checker: best-window support for `direct_evidence`."""
    indirect_support: float = Field(default=0.3, ge=0.0, le=1.0)
    """Offline checker: best-window support for `indirect_support`."""


class ModelSettings(BaseModel):
    """An OpenAI-compatible endpoint (OpenAI, DashScope compatible mode, vLLM, Ollama...)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    api_key: SecretStr | None = None
    name: str | None = None
    """Model name, e.g. `gpt-4o-mini` or `qwen-plus`. Unset means: no model, offline mode."""
    timeout_seconds: float = Field(default=30.0, gt=0)
    structured_output: Literal["json_schema", "json_object"] = "json_schema"

    @property
    def configured(self) -> bool:
        return bool(self.name)


class Settings(BaseSettings):
    """All of groundgate's configuration."""

    model_config = SettingsConfigDict(
        env_prefix="GROUNDGATE_",
        env_nested_delimiter="__",
        extra="forbid",
    )

    data_dir: Path = Path("~/.groundgate")
    """Where all state lives (databases, the knowledge shard, logs)."""
    verifier: VerifierSettings = VerifierSettings()
    model: ModelSettings = ModelSettings()
    """The default model for every role; empty means offline."""
    judge: ModelSettings | None = None
    """A separate model for the grounding judge (`check --model`), when it should differ."""

    @field_validator("data_dir")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml_path = Path(os.environ.get("GROUNDGATE_CONFIG", "groundgate.toml"))
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, toml_file=toml_path))

    def judge_model(self) -> ModelSettings:
        """The settings of the model that judges grounding."""
        return self.judge if self.judge is not None and self.judge.configured else self.model


def load_settings(**overrides: object) -> Settings:
    """Load settings, turning validation problems into a `ConfigurationError` that names the key."""
    config = os.environ.get("GROUNDGATE_CONFIG")
    if config and not Path(config).is_file():
        raise ConfigurationError(f"GROUNDGATE_CONFIG points to {config!r}, which is not a file")
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors())
        raise ConfigurationError(f"invalid groundgate configuration: {problems}") from exc
    except (OSError, ValueError) as exc:  # unreadable or malformed TOML
        raise ConfigurationError(f"cannot read groundgate configuration: {exc}") from exc
