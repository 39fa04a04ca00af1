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

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from groundgate.errors import ConfigurationError

OFFLINE_CHAT_WORKERS = 4
"""Chats answered at once by default when nothing a chat calls is on the network (`[api] chat_workers`)."""
NETWORKED_CHAT_WORKERS = 40
"""… and when a model, an embedding endpoint or a Qdrant server is (Starlette's own thread count)."""


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


class RoleModels(BaseModel):
    """Optional per-role models; an unset role uses `[model]`."""

    model_config = ConfigDict(extra="forbid")

    planner: ModelSettings | None = None
    executor: ModelSettings | None = None
    verifier: ModelSettings | None = None
    judge: ModelSettings | None = None
    """The grounding judge of `check --model`."""


class BudgetSettings(BaseModel):
    """Run limits (docs/design.md §1 invariant 7); see `groundgate.runtime.budgets.Budgets`."""

    model_config = ConfigDict(extra="forbid")

    max_rounds: int = Field(default=2, ge=1, le=2)
    max_tool_calls: int = Field(default=8, ge=1, le=100)
    max_calls_per_round: int = Field(default=5, ge=1, le=50)
    max_candidates: int = Field(default=20, ge=1, le=200)
    wall_seconds: float = Field(default=60.0, gt=0, le=3600)
    tool_timeout_seconds: float | None = Field(default=None, gt=0)
    """Overrides every tool's own timeout when set."""


class KnowledgeSettings(BaseModel):
    """Where the knowledge index lives: the embedded Qdrant Edge shard, or a Qdrant server by URL."""

    model_config = ConfigDict(extra="forbid")

    qdrant_url: str | None = None
    """Empty: the embedded shard under `data_dir/knowledge`. Set: a Qdrant server or cluster."""
    qdrant_api_key: SecretStr | None = None
    collection: str = "groundgate_knowledge"


class EmbeddingSettings(BaseModel):
    """An OpenAI-compatible embeddings endpoint for dense retrieval (`[embedding]`); unset: BM25 only.

    When `model` is set, ingestion stores a dense vector per chunk and search fuses dense and BM25
    (reciprocal rank fusion). A failing endpoint never fails a search: it falls back to BM25 and says
    so. Changing `model` or `dimensions` needs a fresh index (remove the shard, ingest again).
    """

    model_config = ConfigDict(extra="forbid")

    model: str | None = None
    """Embedding model name, e.g. `text-embedding-3-small`, `text-embedding-v3`, `bge-m3`."""
    base_url: str | None = None
    """`https://api.openai.com/v1` when unset; any OpenAI-compatible `/v1` URL otherwise."""
    api_key: SecretStr | None = None
    dimensions: int | None = Field(default=None, ge=1, le=65_536)
    """Size of the model's vectors (required with `model`: the index is created with it)."""
    send_dimensions: bool = False
    """Pass `dimensions` to the API (only `text-embedding-3` and later accept it, to shorten vectors)."""
    timeout_seconds: float = Field(default=30.0, gt=0)
    """One ingestion batch."""
    query_timeout_seconds: float = Field(default=2.0, gt=0)
    """One query at search time: well under the knowledge tool's own 5 s."""
    batch_size: int = Field(default=64, ge=1, le=2048)

    @model_validator(mode="after")
    def _dimensions_with_model(self) -> EmbeddingSettings:
        if self.model and self.dimensions is None:
            raise ValueError("embedding.dimensions is required when embedding.model is set")
        return self

    @property
    def configured(self) -> bool:
        return bool(self.model)


class StoreSettings(BaseModel):
    """Where runs, feedback and cases are stored: embedded SQLite under `data_dir`, or a database URL."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = None
    """Empty: `data_dir/groundgate.sqlite`. Set: e.g. `postgresql+psycopg://user@host/db`."""
    recover_after_seconds: float = Field(default=900.0, ge=0)
    """Runs without a lease (recorded before leases existed, or by an older version during an upgrade):
    once `RUNNING` with no write for this long, recovery marks them `FAILED` (any backend). Leased
    runs follow `lease_seconds` instead."""
    pool_size: int = Field(default=10, ge=1, le=500)
    """PostgreSQL/MariaDB: connections kept open. With `max_overflow` it should cover the service's
    40 worker threads, or a busy server waits on the pool (and gives up after `pool_timeout`)."""
    max_overflow: int = Field(default=30, ge=0, le=500)
    pool_timeout_seconds: float = Field(default=30.0, gt=0)
    lease_seconds: float = Field(default=120.0, gt=0, le=86_400)
    """A `RUNNING` run is owned by the process that started it for this long after its last heartbeat;
    once the lease has expired, any process may mark it `FAILED` (see docs/security.md)."""
    heartbeat_seconds: float = Field(default=15.0, gt=0, le=3600)
    """How often a process renews the leases of the runs it is executing (well under `lease_seconds`)."""
    recover_interval_seconds: float = Field(default=60.0, gt=0, le=86_400)
    """How often `groundgate serve` looks for runs whose lease expired (and once at start-up; every
    CLI command recovers once when it opens the store, `groundgate runs recover` on demand)."""


class MonitoringBackend(BaseModel):
    """A monitoring server read over HTTP (`[prometheus]`, `[alertmanager]`, `[loki]`; groundgate.aiops)."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = None
    """Empty: the embedded demo store answers (no alerts tool). Set (`http://127.0.0.1:9090`): the
    tool reads this server instead (groundgate.wiring)."""
    timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    bearer_token: SecretStr | None = None
    """Sent as `Authorization: Bearer ...` (a proxy in front of the server usually checks it)."""

    @field_validator("url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            return None
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value

    @property
    def configured(self) -> bool:
        return bool(self.url)


class AiOpsSettings(BaseModel):
    """`[aiops]`: receiving Alertmanager webhooks (`POST /api/aiops/alertmanager`) and diagnosing them."""

    model_config = ConfigDict(extra="forbid")

    webhook_token: SecretStr | None = None
    """The bearer token Alertmanager's receiver sends (`http_config.authorization.credentials`).
    Unset: the endpoint answers 401 to every request (nothing is accepted unauthenticated)."""
    tenant: str = Field(default="acme", min_length=1, max_length=128)
    """The tenant the diagnosis runs of received alerts belong to (a webhook carries no principal)."""
    max_concurrency: int = Field(default=2, ge=1, le=32)
    """Diagnoses `groundgate serve` runs at once; the rest wait in the durable queue."""
    claim_seconds: float = Field(default=300.0, gt=0, le=86_400)
    """A claimed alert whose worker did not finish within this is claimed again (a crashed worker)."""
    max_attempts: int = Field(default=3, ge=1, le=20)
    poll_seconds: float = Field(default=1.0, gt=0, le=60)


class LokiSettings(MonitoringBackend):
    """`[loki]`: `query_logs` reads Loki instead of the embedded log store when `url` is set."""

    tenant_mode: Literal["org_id", "label", "platform"] = "org_id"
    """How reads are scoped to the caller's tenant: `X-Scope-OrgID` (Loki multi-tenancy), a stream
    label (`tenant_label`), or not at all (`platform`: logs shared by every tenant, like metrics)."""
    tenant_label: str = Field(default="tenant", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    service_label: str = Field(default="service", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    level_label: str = Field(default="level", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")


class CheckSettings(BaseModel):
    """Budgets of the grounding checker (`groundgate check`, `POST /api/check`): its cost must be bounded
    for any input, so one large or hostile request cannot hold a worker (see docs/security.md)."""

    model_config = ConfigDict(extra="forbid")

    max_context_chars: int = Field(default=200_000, ge=1)
    """One check's context (all passages together); larger → 413 over HTTP, a usage error in the CLI,
    a bad line in a batch. Cost is near-linear in it (docs/benchmarks.md, "Checker cost on large
    inputs"): the default checks in about a second on one core."""
    max_answer_chars: int = Field(default=20_000, ge=1)
    """One check's answer, and its question (analysed alike); larger → 413 over HTTP, a usage error
    in the CLI, a bad line in a batch."""
    time_budget_seconds: float = Field(default=10.0, gt=0, le=3600)
    """Wall time of one check; past it the remaining claims are `no_evidence` with reason
    `budget:time_exceeded` and the verdict is at best `LOW_CONFID` (never a stuck worker)."""
    max_concurrency: int = Field(default=2, ge=1, le=256)
    """`POST /api/check` requests checked at once (off the event loop); more wait for a slot."""
    queue_timeout_seconds: float = Field(default=30.0, gt=0, le=3600)
    """How long a check request waits for a slot before 503 `busy`."""


class IngestSettings(BaseModel):
    """What `groundgate ingest` reads (see docs/security.md)."""

    model_config = ConfigDict(extra="forbid")

    max_file_bytes: int = Field(default=5_000_000, ge=1)
    """Larger files are skipped and reported."""


class LocalIdentity(BaseModel):
    """Who the CLI acts as. The service resolves identity from API keys instead; never from a model."""

    model_config = ConfigDict(extra="forbid")

    tenant: str = "acme"
    """The demo workspace's tenant."""
    user: str = "local"
    roles: tuple[str, ...] = ("sre",)


class ApiKeyEntry(BaseModel):
    """The principal one API key stands for (`[api.keys."<sha256 hex of the key>"]`)."""

    model_config = ConfigDict(extra="forbid")

    tenant: str
    user: str
    roles: tuple[str, ...] = ("viewer",)
    """`viewer` reads runs, traces and cases; `user`, `sre`, `operator` or `admin` may also chat,
    check and give feedback."""
    allowed_projects: tuple[str, ...] = ()


class ApiSettings(BaseModel):
    """The HTTP service (`groundgate serve`)."""

    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    keys: dict[str, ApiKeyEntry] = Field(default_factory=dict)
    """sha256 hex digest of an API key → its principal. Empty: local single-user mode (127.0.0.1 only)."""
    max_body_bytes: int = Field(default=1_000_000, ge=1024)
    """Larger request bodies are refused with HTTP 413."""
    max_question_chars: int = Field(default=2000, ge=1)
    chat_workers: int | None = Field(default=None, ge=1, le=500)
    """Chats (`POST /api/chat`, `POST /api/agent/ask`) answered at once, each on a worker thread; the
    others wait their turn on the event loop. Unset: 4 when no role model, embedding endpoint or
    Qdrant server is configured — the offline pipeline is CPU-bound, and more Python threads only
    contend for the interpreter lock (docs/benchmarks.md, "Service throughput") — else 40, because a
    chat then mostly waits on the network."""
    keep_alive_seconds: int = Field(default=75, ge=1, le=3600)
    """Idle keep-alive connections are closed after this long. Longer than common client idle
    timeouts (httpx and many proxies use 5-60 s), so the client closes first and never sends a request
    on a connection the server is closing."""


class AgentSettings(BaseModel):
    """`[agent]`: how the business agent (groundgate.agent, seed 003) is rolled out beside the chat
    pipeline (seed "迁移顺序"). `POST /api/agent/ask` answers with the agent in every mode."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["off", "shadow", "active"] = "off"
    """`off`: `POST /api/chat` is the chat pipeline alone. `shadow`: the agent also runs beside each chat
    run (after its answer, off the request's path) and its decision is recorded (mode `agent-shadow`)
    without changing the reply (step 1). `active`: questions the agent can fully plan are answered by
    it; the others fall back to the chat pipeline, recorded as `agent-fallback` (step 3)."""
    shadow_queue: int = Field(default=100, ge=1, le=100_000)
    """Shadow decisions pending (queued or running in the one shadow worker) at most, per service
    process. When that many are pending, a new one is dropped — logged and counted in `/metrics`
    (`groundgate_agent_shadow_dropped_total`) — so that under overload shadow work neither piles up
    in memory nor slows or fails a chat reply."""


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
    roles: RoleModels = RoleModels()
    """Per-role overrides of `model` (`[roles.verifier]` ...): each role may use its own model."""
    budgets: BudgetSettings = BudgetSettings()
    knowledge: KnowledgeSettings = KnowledgeSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    """Dense retrieval; empty means BM25 (with the bilingual lexicon) only."""
    store: StoreSettings = StoreSettings()
    check: CheckSettings = CheckSettings()
    ingest: IngestSettings = IngestSettings()
    local: LocalIdentity = LocalIdentity()
    api: ApiSettings = ApiSettings()
    prometheus: MonitoringBackend = MonitoringBackend()
    """`query_metrics` reads this Prometheus instead of the embedded metric store when `url` is set."""
    alertmanager: MonitoringBackend = MonitoringBackend()
    """`list_active_alerts` is registered, reading this Alertmanager, when `url` is set."""
    loki: LokiSettings = LokiSettings()
    aiops: AiOpsSettings = AiOpsSettings()
    agent: AgentSettings = AgentSettings()
    """The business agent's rollout beside `POST /api/chat` (`off`, `shadow`, `active`)."""

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
        return self.role_model("judge")

    @property
    def networked(self) -> bool:
        """Whether answering calls something over the network: a model of any role, an embedding
        endpoint or a Qdrant server. Otherwise a chat is CPU work in this process alone."""
        roles: tuple[Literal["planner", "executor", "verifier", "judge"], ...] = (
            "planner",
            "executor",
            "verifier",
            "judge",
        )
        return (
            any(self.role_model(r).configured for r in roles)
            or self.embedding.configured
            or bool(self.knowledge.qdrant_url)
        )

    @property
    def chat_workers(self) -> int:
        """`[api] chat_workers`, or its default for this configuration (see there)."""
        if self.api.chat_workers is not None:
            return self.api.chat_workers
        return NETWORKED_CHAT_WORKERS if self.networked else OFFLINE_CHAT_WORKERS

    def role_model(self, role: Literal["planner", "executor", "verifier", "judge"]) -> ModelSettings:
        """The model settings of a role: its own section when configured, else `[model]`."""
        own: ModelSettings | None = getattr(self.roles, role)
        return own if own is not None and own.configured else self.model


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
