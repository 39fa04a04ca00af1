"""`/metrics`: per-process counters in the Prometheus text exposition format (0.0.4).

Runs by verdict and output kind, tool latency by tool and status, failed runs, model tokens, and the
shadow decisions dropped because the shadow queue was full (`[agent] shadow_queue`).
Tokens count only the steps a model actually answered: the offline roles (rules, extraction, the
offline checker) and the fixed templates record an *estimate* of their input size on their steps for
the trace, but no model ran, so an offline service reports 0 tokens.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field

from groundgate.contracts import AgentStep, ParseStatus, RunResult

__all__ = ["Metrics", "model_tokens"]

# Step `model_name`s of the stand-ins that are not models (runtime/offline.py, verify/verifier.py,
# the orchestrator's templates step).
_NOT_A_MODEL_PREFIX = "offline"
_TEMPLATES = "templates"


def _model_ran(step: AgentStep) -> bool:
    name = step.model_name or ""
    return (
        step.parse_status != ParseStatus.NOT_CALLED
        and bool(name)
        and not name.startswith(_NOT_A_MODEL_PREFIX)
        and name != _TEMPLATES
    )


def model_tokens(result: RunResult) -> tuple[int, int]:
    """(input, output) tokens of the steps a model answered."""
    ran = [s for s in result.steps if _model_ran(s)]
    return sum(s.input_tokens for s in ran), sum(s.output_tokens for s in ran)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


@dataclass
class Metrics:
    """Counters for `/metrics` (Prometheus text exposition format 0.0.4), per process."""

    runs: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    tool_seconds_sum: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    tool_count: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    tokens: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    requests_failed: int = 0
    shadow_dropped: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def observe_run(self, result: RunResult) -> None:
        with self.lock:
            verdict = result.verdict.value if result.verdict else "NONE"
            self.runs[(verdict, result.output_kind.value)] += 1
            for tool_result in result.tool_results:
                key = (tool_result.tool, tool_result.status.value)
                self.tool_seconds_sum[key] += (tool_result.latency_ms or 0.0) / 1000
                self.tool_count[key] += 1
            tokens_in, tokens_out = model_tokens(result)
            self.tokens["input"] += tokens_in
            self.tokens["output"] += tokens_out

    def observe_failed_run(self) -> None:
        """A run that raised and was answered `DEGRADED` (its steps are not at hand: no tokens)."""
        with self.lock:
            self.runs[("NONE", "DEGRADED")] += 1
            self.requests_failed += 1

    def observe_shadow_dropped(self) -> None:
        """A shadow decision dropped: the shadow queue was full (`apps.agent_rollout.ShadowRuns`)."""
        with self.lock:
            self.shadow_dropped += 1

    def exposition(self) -> str:
        with self.lock:
            lines = [
                "# HELP groundgate_runs_total Runs answered, by verdict and output kind.",
                "# TYPE groundgate_runs_total counter",
            ]
            for (verdict, kind), count in sorted(self.runs.items()):
                lines.append(
                    f'groundgate_runs_total{{verdict="{_escape(verdict)}",output_kind="{_escape(kind)}"}} {count}'
                )
            lines += [
                "# HELP groundgate_tool_latency_seconds Tool call latency, by tool and status.",
                "# TYPE groundgate_tool_latency_seconds summary",
            ]
            for (tool, status), total in sorted(self.tool_seconds_sum.items()):
                labels = f'tool="{_escape(tool)}",status="{_escape(status)}"'
                lines.append(f"groundgate_tool_latency_seconds_sum{{{labels}}} {total:.6f}")
                lines.append(
                    f"groundgate_tool_latency_seconds_count{{{labels}}} {self.tool_count[(tool, status)]}"
                )
            lines += [
                "# HELP groundgate_model_tokens_total Model tokens used by runs.",
                "# TYPE groundgate_model_tokens_total counter",
            ]
            for direction in ("input", "output"):
                lines.append(
                    f'groundgate_model_tokens_total{{direction="{direction}"}} {self.tokens[direction]}'
                )
            lines += [
                "# HELP groundgate_run_failures_total Runs that raised and were answered DEGRADED.",
                "# TYPE groundgate_run_failures_total counter",
                f"groundgate_run_failures_total {self.requests_failed}",
                "# HELP groundgate_agent_shadow_dropped_total Shadow decisions dropped: the shadow queue was full.",
                "# TYPE groundgate_agent_shadow_dropped_total counter",
                f"groundgate_agent_shadow_dropped_total {self.shadow_dropped}",
            ]
        return "\n".join(lines) + "\n"
