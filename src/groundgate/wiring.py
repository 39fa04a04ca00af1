"""Building objects from settings: the composition root shared by the CLI and the API.

Only the entry points (`cli`, `api`) read configuration; both build the workspace, the store and the
orchestrator through these functions, so `groundgate ask` and `POST /api/chat` run the same pipeline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate.settings import Settings
from groundgate.verify.offline_checker import CheckerThresholds, OfflineChecker

if TYPE_CHECKING:
    # Imported where used: `groundgate check` builds only the checker and must not load the
    # pipeline, the store (SQLAlchemy, Alembic) or the knowledge index (see groundgate.cli).
    from groundgate.apps.chat import RoleModels
    from groundgate.apps.workspace import Workspace
    from groundgate.contracts import ExecutionContext
    from groundgate.knowledge.index import DenseEncoder
    from groundgate.models.base import Model
    from groundgate.runtime.budgets import Budgets
    from groundgate.runtime.orchestrator import Orchestrator
    from groundgate.store import Store
    from groundgate.tools.registry import ToolRegistry
    from groundgate.verify.assessment import ClaimClassifier


def checker_thresholds(settings: Settings) -> CheckerThresholds:
    return CheckerThresholds(
        direct=settings.verifier.direct_support, indirect=settings.verifier.indirect_support
    )


def offline_checker(settings: Settings) -> OfflineChecker:
    return OfflineChecker(checker_thresholds(settings))


def check_classifier(settings: Settings) -> ClaimClassifier:
    """The grounding checker's classifier: the judge model when one is configured, else offline.

    The judge role uses `[roles.judge]`, else `[model]`. An `LLMJudge` runs the offline checker too:
    its deterministic contradictions stand, and it answers alone whenever the model call fails
    (timeout, HTTP error, refusal, bad JSON), with `judge_status` saying why.
    """
    offline = offline_checker(settings)
    config = settings.judge_model()
    if not config.configured:
        return offline
    from groundgate.models.openai import OpenAIModel
    from groundgate.verify.judge import LLMJudge

    model = OpenAIModel(
        model_name=config.name or "",
        base_url=config.base_url,
        api_key=config.api_key.get_secret_value() if config.api_key else None,
        timeout_seconds=config.timeout_seconds,
        structured_output=config.structured_output,
    )
    return LLMJudge(model, fallback=offline)


def role_models(settings: Settings) -> RoleModels:
    """An OpenAI-compatible model per configured role; unconfigured roles run offline."""
    from groundgate.apps.chat import RoleModels

    built: dict[str, Model] = {}
    for role in ("planner", "executor", "verifier"):
        config = settings.role_model(role)
        if config.configured:
            from groundgate.models.openai import OpenAIModel

            built[role] = OpenAIModel(
                model_name=config.name or "",
                base_url=config.base_url,
                api_key=config.api_key.get_secret_value() if config.api_key else None,
                timeout_seconds=config.timeout_seconds,
                structured_output=config.structured_output,
            )
    return RoleModels(**built)


def budgets_from_settings(settings: Settings) -> Budgets:
    from groundgate.runtime.budgets import Budgets

    b = settings.budgets
    return Budgets(
        max_rounds=b.max_rounds,
        max_tool_calls=b.max_tool_calls,
        max_calls_per_round=b.max_calls_per_round,
        max_candidates=b.max_candidates,
        wall_seconds=b.wall_seconds,
        low_confidence_threshold=settings.verifier.low_confidence_threshold,
    )


def embedding_encoder(settings: Settings) -> DenseEncoder | None:
    """The `[embedding]` endpoint as the knowledge index's dense encoder, or None when unset."""
    config = settings.embedding
    if not config.configured or config.dimensions is None:
        return None
    from groundgate.models.embeddings import OpenAIEmbeddings

    return OpenAIEmbeddings(
        config.model or "",
        dimensions=config.dimensions,
        base_url=config.base_url,
        api_key=config.api_key.get_secret_value() if config.api_key else None,
        timeout_seconds=config.timeout_seconds,
        query_timeout_seconds=config.query_timeout_seconds,
        batch_size=config.batch_size,
        send_dimensions=config.send_dimensions,
    )


def open_configured_workspace(settings: Settings) -> Workspace:
    """The workspace of `settings`: `[knowledge]` for the index, `[embedding]` for dense vectors."""
    from groundgate.apps.workspace import Workspace, open_workspace

    key = settings.knowledge.qdrant_api_key
    dense = embedding_encoder(settings)
    if dense is None and not monitoring_configured(settings):
        return open_workspace(
            settings.data_dir,
            qdrant_url=settings.knowledge.qdrant_url,
            qdrant_api_key=key.get_secret_value() if key else None,
            collection=settings.knowledge.collection,
        )
    # `open_workspace` opens its index without an embedder and registers the embedded stores' tools,
    # so with an embedder or a monitoring server the workspace is assembled here the same way.
    from groundgate.knowledge import open_index
    from groundgate.tools.builtin import register_builtin_tools
    from groundgate.tools.builtin.knowledge import register_knowledge_tool
    from groundgate.tools.builtin.logs import LogStore
    from groundgate.tools.builtin.metrics import MetricStore
    from groundgate.tools.builtin.orders import OrderStore
    from groundgate.tools.registry import ToolRegistry

    data_dir = settings.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    index = open_index(
        data_dir=data_dir,
        url=settings.knowledge.qdrant_url,
        api_key=key.get_secret_value() if key else None,
        collection=settings.knowledge.collection,
        dense=dense,
    )
    logs = LogStore(data_dir / "logs.sqlite")
    metrics = MetricStore(data_dir / "metrics.sqlite")
    orders = OrderStore(data_dir / "orders.sqlite")
    registry = ToolRegistry()
    register_knowledge_tool(registry, index)
    # A configured server replaces its embedded store's tool (the stores stay open: the demo loads them).
    register_builtin_tools(
        registry,
        logs=None if settings.loki.configured else logs,
        metrics=None if settings.prometheus.configured else metrics,
        orders=orders,
    )
    register_monitoring_tools(registry, settings)
    return Workspace(data_dir, index, logs, metrics, orders, registry)


def monitoring_configured(settings: Settings) -> bool:
    """Whether `[prometheus]`, `[alertmanager]` or `[loki]` names a server."""
    return settings.prometheus.configured or settings.alertmanager.configured or settings.loki.configured


def register_monitoring_tools(registry: ToolRegistry, settings: Settings) -> list[str]:
    """Register the tools over the configured monitoring servers (groundgate.aiops); their names.

    `[prometheus] url` → `query_metrics`, `[loki] url` → `query_logs` (each instead of the embedded
    store's tool of that name), `[alertmanager] url` → `list_active_alerts`.
    """
    names: list[str] = []

    def token(secret: Any) -> str | None:
        return secret.get_secret_value() if secret is not None else None

    if settings.prometheus.configured:
        from groundgate.aiops.prometheus import PrometheusClient
        from groundgate.tools.prometheus import prometheus_metrics_tool

        config = settings.prometheus
        prometheus = PrometheusClient(
            config.url or "", timeout_seconds=config.timeout_seconds, bearer_token=token(config.bearer_token)
        )
        spec, run_metrics = prometheus_metrics_tool(prometheus)
        registry.register(spec, run_metrics)
        names.append(spec.name)
    if settings.loki.configured:
        from groundgate.aiops.loki import LokiClient
        from groundgate.tools.loki import loki_logs_tool

        loki = settings.loki
        spec, run_logs = loki_logs_tool(
            LokiClient(
                loki.url or "", timeout_seconds=loki.timeout_seconds, bearer_token=token(loki.bearer_token)
            ),
            tenant_mode=loki.tenant_mode,
            tenant_label=loki.tenant_label,
            service_label=loki.service_label,
            level_label=loki.level_label,
        )
        registry.register(spec, run_logs)
        names.append(spec.name)
    if settings.alertmanager.configured:
        from groundgate.aiops.alertmanager import AlertmanagerClient
        from groundgate.tools.alertmanager import active_alerts_tool

        config = settings.alertmanager
        alertmanager = AlertmanagerClient(
            config.url or "", timeout_seconds=config.timeout_seconds, bearer_token=token(config.bearer_token)
        )
        spec, run_alerts = active_alerts_tool(alertmanager)
        registry.register(spec, run_alerts)
        names.append(spec.name)
    return names


def local_context(settings: Settings) -> ExecutionContext:
    from groundgate.contracts import ExecutionContext

    return ExecutionContext(
        tenant=settings.local.tenant, user=settings.local.user, roles=settings.local.roles
    )


def build_configured_orchestrator(settings: Settings, workspace: Workspace) -> Orchestrator:
    from groundgate.apps.chat import build_orchestrator

    return build_orchestrator(
        workspace.registry,
        models=role_models(settings),
        budgets=budgets_from_settings(settings),
        thresholds=checker_thresholds(settings),
        live_until=workspace.live_until,
        tenants=workspace.tenants,
    )


def open_configured_store(settings: Settings, *, recover: bool = True) -> Store:
    """The run store: `[store] url`, else embedded SQLite under the data directory.

    Runs are leased per `[store] lease_seconds` / `heartbeat_seconds`; rows without a lease (written
    before leases existed) are judged by `recover_after_seconds` of silence. With `recover` (every
    entry point at start-up, any backend), runs whose lease expired — their process was killed or cut
    off — are marked `FAILED`; safe while other processes use the store (`groundgate.store.leases`).
    A recovery that fails is logged, not fatal: the next start or the service's periodic pass retries.
    """
    import logging

    from groundgate.errors import ConfigurationError
    from groundgate.store import StoreError, open_store
    from groundgate.store.leases import LeasePolicy, recover_interrupted_runs

    pool: dict[str, Any] = {}
    if settings.store.url and not settings.store.url.startswith("sqlite"):
        pool = {
            "pool_size": settings.store.pool_size,
            "max_overflow": settings.store.max_overflow,
            "pool_timeout": settings.store.pool_timeout_seconds,
        }
    if settings.store.heartbeat_seconds >= settings.store.lease_seconds:
        # Leases would lapse between beats: live runs would be recovered FAILED under their process.
        raise ConfigurationError(
            f"[store] heartbeat_seconds ({settings.store.heartbeat_seconds:g}) must be well under "
            f"lease_seconds ({settings.store.lease_seconds:g})"
        )
    lease = LeasePolicy(
        lease_seconds=settings.store.lease_seconds,
        heartbeat_seconds=settings.store.heartbeat_seconds,
        legacy_idle_seconds=settings.store.recover_after_seconds,
    )
    store = open_store(settings.store.url or settings.data_dir, lease=lease, **pool)
    if recover:
        try:
            recover_interrupted_runs(store)
        except StoreError as exc:
            logging.getLogger(__name__).warning("could not recover interrupted runs at start-up: %s", exc)
    return store
