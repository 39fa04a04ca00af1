"""OpenTelemetry export (optional extra `otel`): a stored run as one trace, sent through the OTLP/HTTP
exporter, so runs land in Langfuse, Phoenix, Jaeger or any OTLP collector.

One trace per run, read through `groundgate.apps.get_trace`:

- the run: a span `invoke_agent groundgate` (GenAI semantic conventions: `gen_ai.operation.name`
  `invoke_agent`, `gen_ai.agent.name`, `gen_ai.conversation.id` = the session, `gen_ai.usage.*`),
  with the verdict and scores as `groundgate.*` attributes (output kind, verdict, groundedness, rounds,
  stop reason, feedback, the rule evaluation's evidence score) and an error status for a `FAILED` run;
- each step a child span: `chat MODEL` (`gen_ai.operation.name` `chat`, `gen_ai.request.model`,
  token usage) when a model took it, else `ROLE round N` for the offline roles;
- each tool invocation a child span `execute_tool TOOL` (`gen_ai.tool.name`, `gen_ai.tool.call.id`),
  an error status when it failed, timed out or was denied.

Spans carry the stored times (a step's and an invocation's end is when it was written, its start
that minus its latency). Nothing a model was told is exported: no prompt, no answer text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from groundgate.errors import UsageError

if TYPE_CHECKING:
    from groundgate.apps import RunTrace

__all__ = ["OFFLINE_MODEL_NAMES", "export_runs", "record_run_spans"]

OFFLINE_MODEL_NAMES = frozenset({"", "offline-rules", "offline-extractive", "offline-checker", "templates"})
_FAILED_TOOL = frozenset({"ERROR", "TIMEOUT", "DENIED"})


def _ns(value: datetime) -> int:
    return int(value.timestamp() * 1_000_000_000)


def _window(end: datetime | None, latency_ms: float | None, fallback: datetime) -> tuple[int, int]:
    finish = end or fallback
    start = finish - timedelta(milliseconds=latency_ms or 0.0)
    return _ns(start), _ns(finish)


def _clean(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """OpenTelemetry takes str, bool, int, float (and lists of them); None is left out."""
    return {k: v for k, v in attributes.items() if v is not None}


def record_run_spans(trace: RunTrace, tracer: Any) -> None:
    """Emit the spans of one stored run on `tracer` (an OpenTelemetry `Tracer`)."""
    from opentelemetry import trace as otel_trace
    from opentelemetry.trace import Status, StatusCode

    started = trace.started_at or trace.created_at
    if started is None:
        raise UsageError(f"run {trace.run_id} has no start time to export")
    finished = trace.finished_at or started + timedelta(milliseconds=trace.elapsed_ms)
    evaluation = trace.verifier_evaluation
    root = tracer.start_span(
        "invoke_agent groundgate",
        start_time=_ns(started),
        attributes=_clean(
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "groundgate",
                "gen_ai.conversation.id": trace.session_id,
                "gen_ai.usage.input_tokens": trace.input_tokens,
                "gen_ai.usage.output_tokens": trace.output_tokens,
                "groundgate.run.id": trace.run_id,
                "groundgate.run.mode": trace.mode,
                "groundgate.run.status": trace.status,
                "groundgate.output_kind": trace.output_kind,
                "groundgate.verdict": trace.verdict,
                "groundgate.groundedness_score": evaluation.groundedness_score if evaluation else None,
                "groundgate.critical_fact_count": evaluation.critical_fact_count if evaluation else None,
                "groundgate.rounds": trace.rounds,
                "groundgate.stop_reason": trace.stop_reason,
                "groundgate.feedback": trace.feedback,
                "groundgate.rule_evaluation.evidence_score": trace.rule_evaluation.evidence_score
                if trace.rule_evaluation
                else None,
            }
        ),
    )
    if trace.status == "FAILED":
        root.set_status(Status(StatusCode.ERROR, trace.stop_reason or "failed"))
    context = otel_trace.set_span_in_context(root)
    for step in trace.steps:
        model = step.model_name not in OFFLINE_MODEL_NAMES
        start, end = _window(step.created_at, step.latency_ms, finished)
        span = tracer.start_span(
            f"chat {step.model_name}" if model else f"{step.role} round {step.round}",
            context=context,
            start_time=start,
            attributes=_clean(
                {
                    "gen_ai.operation.name": "chat" if model else None,
                    "gen_ai.request.model": step.model_name if model else None,
                    "gen_ai.usage.input_tokens": step.input_tokens if model else None,
                    "gen_ai.usage.output_tokens": step.output_tokens if model else None,
                    "groundgate.step.role": step.role,
                    "groundgate.step.round": step.round,
                    "groundgate.step.parse_status": step.parse_status,
                    "groundgate.step.reason_code": step.reason_code or None,
                    "groundgate.step.offline_role": None if model else step.model_name or None,
                }
            ),
        )
        span.end(end_time=end)
    for call in trace.tool_invocations:
        start, end = _window(call.created_at, call.latency_ms, finished)
        span = tracer.start_span(
            f"execute_tool {call.tool}",
            context=context,
            start_time=start,
            attributes=_clean(
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": call.tool,
                    "gen_ai.tool.call.id": call.invocation_id,
                    "groundgate.tool.status": call.status,
                    "groundgate.tool.round": call.round,
                    "groundgate.tool.output_summary": call.output_summary[:500] or None,
                }
            ),
        )
        if call.status in _FAILED_TOOL:
            span.set_status(Status(StatusCode.ERROR, call.error or call.status))
        span.end(end_time=end)
    root.end(end_time=_ns(finished))


def export_runs(
    traces: Iterable[RunTrace],
    *,
    endpoint: str,
    headers: Mapping[str, str] | None = None,
    service_name: str = "groundgate",
    timeout_seconds: float = 10.0,
) -> int:
    """Send each run as a trace to the OTLP/HTTP `endpoint` (`http://host:4318`, or its full
    `/v1/traces` URL); returns how many runs were sent. `UsageError` without the `otel` extra;
    `RunError` when the collector does not accept them."""
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
    except ImportError as exc:
        raise UsageError(
            f"OpenTelemetry export needs the otel extra: pip install 'groundgate[otel]' ({exc.name} is missing)"
        ) from None
    from groundgate.errors import RunError

    url = endpoint if endpoint.rstrip("/").endswith("/v1/traces") else endpoint.rstrip("/") + "/v1/traces"
    exporter = OTLPSpanExporter(endpoint=url, headers=dict(headers or {}), timeout=timeout_seconds)
    results: list[Any] = []

    class _Checked(SimpleSpanProcessor):
        # SimpleSpanProcessor only logs a failed export; an export command must say it failed.
        def on_end(self, span: Any) -> None:
            results.append(exporter.export((span,)))

    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    provider.add_span_processor(_Checked(exporter))
    tracer = provider.get_tracer("groundgate.regression.otel")
    sent = 0
    try:
        for trace in traces:
            record_run_spans(trace, tracer)
            sent += 1
    finally:
        provider.shutdown()
    failed = sum(result != SpanExportResult.SUCCESS for result in results)
    if failed:
        raise RunError(f"the OTLP collector at {url} refused {failed} of {len(results)} spans")
    return sent
