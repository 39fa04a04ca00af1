"""Configuration from environment variables and groundgate.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundgate.errors import ConfigurationError
from groundgate.settings import load_settings


def test_defaults(tmp_path: Path) -> None:
    settings = load_settings()
    assert settings.verifier.low_confidence_threshold == 0.5
    assert settings.data_dir == tmp_path / "data"
    assert not settings.model.configured


def test_toml_file_then_env_overrides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "groundgate.toml").write_text(
        '[verifier]\nlow_confidence_threshold = 0.6\n[model]\nname = "qwen-plus"\nbase_url = "http://127.0.0.1:9/v1"\n',
        encoding="utf-8",
    )
    settings = load_settings()
    assert settings.verifier.low_confidence_threshold == 0.6
    assert settings.model.name == "qwen-plus"
    assert settings.judge_model().name == "qwen-plus"
    monkeypatch.setenv("GROUNDGATE_VERIFIER__LOW_CONFIDENCE_THRESHOLD", "0.7")
    assert load_settings().verifier.low_confidence_threshold == 0.7


def test_data_dir_expands_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROUNDGATE_DATA_DIR", "~/gg-data")
    assert load_settings().data_dir == Path("~/gg-data").expanduser()


@pytest.mark.parametrize(
    ("env", "value", "mentions"),
    [
        ("GROUNDGATE_VERIFIER__LOW_CONFIDENCE_THRESHOLD", "1.5", "low_confidence_threshold"),
        ("GROUNDGATE_VERIFIER__LOW_CONFIDENCE_THRESHOLD", "high", "low_confidence_threshold"),
        ("GROUNDGATE_MODEL__STRUCTURED_OUTPUT", "xml", "structured_output"),
    ],
)
def test_bad_values_are_configuration_errors(
    monkeypatch: pytest.MonkeyPatch, env: str, value: str, mentions: str
) -> None:
    monkeypatch.setenv(env, value)
    with pytest.raises(ConfigurationError, match=mentions):
        load_settings()


def test_unknown_toml_key_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "groundgate.toml").write_text("[verifier]\nlow_confidence = 0.6\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="low_confidence"):
        load_settings()


def test_malformed_toml_is_a_configuration_error(tmp_path: Path) -> None:
    (tmp_path / "groundgate.toml").write_text("[verifier\n", encoding="utf-8")
    with pytest.raises(ConfigurationError):
        load_settings()


def test_missing_explicit_config_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GROUNDGATE_CONFIG", str(tmp_path / "nope.toml"))
    with pytest.raises(ConfigurationError, match="not a file"):
        load_settings()
