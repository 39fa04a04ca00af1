"""The eval report: one self-contained HTML file (plotly, its JavaScript inlined, so it opens offline
and from a CI artifact) and the same figures as JSON for machines.

Figures: the outcome confusion matrix (expected output kind × observed), the groundedness
distribution, per-tool failure rates (`ERROR`, `TIMEOUT`, `DENIED` and replay misses over all calls),
and token and latency histograms. Below them: the changed cases (against a baseline), or without one
the cases that did not pass, each with its run ids — a link to the web page's trace when a trace URL
is given, else the `groundgate trace RUN_ID` to type.
"""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from groundgate.regression.judge import CaseResult

if TYPE_CHECKING:
    from plotly.graph_objects import Figure  # type: ignore[import-untyped,unused-ignore]

    from groundgate.regression.baseline import BaselineDiff
    from groundgate.regression.runner import EvalRun

__all__ = ["OUTPUT_KINDS", "figures_json", "report_figures", "write_report"]

OUTPUT_KINDS = ("NORMAL", "LOW_CONFID_WITH_DISCLAIMER", "DEGRADED")
_FAILED_TOOL = frozenset({"ERROR", "TIMEOUT", "DENIED"})
_LAYOUT: dict[str, Any] = {
    "template": "plotly_white",
    "height": 360,
    "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
}


_SHORT = {"NORMAL": "NORMAL", "LOW_CONFID_WITH_DISCLAIMER": "DISCLAIMER", "DEGRADED": "DEGRADED"}


def _expected_label(kinds: Sequence[str]) -> str:
    """`NORMAL`, `NORMAL or DISCLAIMER`, …; `any` when the case does not say."""
    return " or ".join(_SHORT.get(k, k) for k in kinds) if kinds else "any"


def _confusion(results: Sequence[CaseResult]) -> Figure:
    import plotly.graph_objects as go  # type: ignore[import-untyped,unused-ignore]

    cols = [*_SHORT.values(), "no outcome"]
    counts: Counter[tuple[str, str]] = Counter()
    for r in results:
        observed = r.observed.output_kind if r.observed and r.observed.output_kind else None
        counts[(_expected_label(r.expected_output_kind), _SHORT.get(observed or "", "no outcome"))] += 1
    rows = sorted({row for row, _ in counts}, key=lambda row: (row == "any", row.count(" or "), row))
    z = [[counts[(row, col)] for col in cols] for row in rows]
    fig = go.Figure(
        go.Heatmap(
            z=z, x=cols, y=rows, colorscale="Blues", texttemplate="%{z}", showscale=False, xgap=2, ygap=2
        )
    )
    fig.update_layout(
        title="Outcome: expected (rows) × observed (columns)",
        xaxis={"title": "observed", "type": "category"},
        yaxis={"title": "", "type": "category", "autorange": "reversed"},
        **_LAYOUT,
    )
    return fig


def _histogram(values: list[float], title: str, axis: str, *, bins: dict[str, float] | None = None) -> Figure:
    import plotly.graph_objects as go  # type: ignore[import-untyped,unused-ignore]

    fig = go.Figure(go.Histogram(x=values, xbins=bins, marker_color="#3b6ea5"))
    fig.update_layout(title=title, xaxis_title=axis, yaxis_title="cases", bargap=0.05, **_LAYOUT)
    return fig


def _tool_failures(results: Sequence[CaseResult]) -> Figure:
    import plotly.graph_objects as go  # type: ignore[import-untyped,unused-ignore]

    calls: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    for r in results:
        if r.observed is None:
            continue
        for call in r.observed.tool_calls:
            calls[call.tool] += 1
            failed[call.tool] += call.status in _FAILED_TOOL
    tools = sorted(calls)
    rates = [failed[t] / calls[t] for t in tools]
    fig = go.Figure(
        go.Bar(
            x=tools,
            y=rates,
            text=[f"{failed[t]}/{calls[t]}" for t in tools],
            textposition="outside",
            marker_color="#b5473a",
        )
    )
    fig.update_layout(
        title="Tool failure rate (failed / calls)",
        yaxis_title="failure rate",
        yaxis_range=[0, 1.1],
        **_LAYOUT,
    )
    return fig


def report_figures(run: EvalRun) -> dict[str, Figure]:
    """The report's figures by name (`confusion`, `groundedness`, `tool_failures`, `tokens`, `latency`)."""
    seen = [r.observed for r in run.results if r.observed is not None]
    return {
        "confusion": _confusion(run.results),
        "groundedness": _histogram(
            [s.groundedness for s in seen],
            "Groundedness",
            "groundedness score",
            bins={"start": 0, "end": 1.0001, "size": 0.1},
        ),
        "tool_failures": _tool_failures(run.results),
        "tokens": _histogram([float(s.tokens) for s in seen], "Tokens per case", "input + output tokens"),
        "latency": _histogram([s.latency_ms for s in seen], "Latency per case", "milliseconds"),
    }


def figures_json(figures: dict[str, Figure]) -> dict[str, Any]:
    """The figures as plain JSON (plotly's own figure schema), by name."""
    return {name: json.loads(fig.to_json()) for name, fig in figures.items()}


def _run_link(run_id: str | None, trace_url: str | None) -> str:
    if not run_id:
        return "—"
    if trace_url:
        href = f"{trace_url.rstrip('/')}/#/trace/{run_id}"
        return f'<a href="{html.escape(href)}"><code>{html.escape(run_id)}</code></a>'
    return f'<code title="groundgate trace {html.escape(run_id)}">{html.escape(run_id)}</code>'


def _changed_rows(run: EvalRun, diff: BaselineDiff | None, trace_url: str | None) -> tuple[str, list[str]]:
    rows: list[str] = []
    if diff is not None:
        title = f"Changed since the baseline ({len(diff.changed_keys)} cases, {len(diff.regressions)} regressions)"
        # Regressions first, then other changes; latency (noisy) last.
        ordered = sorted(diff.changes, key=lambda c: (not c.regression, c.kind == "latency"))
        for change in ordered:
            mark = "regression" if change.regression else "change"
            rows.append(
                f'<tr class="{mark}"><td>{html.escape(change.key)}</td><td>{change.kind}</td>'
                f"<td>{html.escape(change.before)}</td><td>{html.escape(change.after)}</td><td>{mark}</td>"
                f"<td>{_run_link(change.run_id, trace_url)}</td><td>{_run_link(change.source_run_id, trace_url)}</td></tr>"
            )
        return title, rows
    failing = [r for r in run.results if r.status.value not in ("passed",)]
    title = f"Cases that did not pass ({len(failing)})"
    for r in failing:
        why = "; ".join(r.failures) or r.error or r.note or (r.known_failure or "")
        rows.append(
            f'<tr class="{"regression" if r.regression else "change"}"><td>{html.escape(r.key)}</td>'
            f"<td>{r.status.value}</td><td colspan=3>{html.escape(why)}</td>"
            f"<td>{_run_link(r.observed.run_id if r.observed and r.observed.recorded else None, trace_url)}</td>"
            f"<td>{_run_link(r.source_run_id, trace_url)}</td></tr>"
        )
    return title, rows


_STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222}
h1{margin-bottom:4px} .summary span{margin-right:16px}
.grid{max-width:1100px} .grid>div{margin-bottom:12px}
table{border-collapse:collapse;margin-top:8px;width:100%} td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
tr.regression td{background:#fbeaea} code{font-size:90%}
"""


def render_html(
    run: EvalRun,
    diff: BaselineDiff | None = None,
    *,
    title: str = "groundgate eval",
    trace_url: str | None = None,
) -> str:
    """The whole report as one HTML document (plotly.js inlined once)."""
    import plotly.io as pio  # type: ignore[import-untyped,unused-ignore]

    figures = report_figures(run)
    parts: list[str] = []
    for n, fig in enumerate(figures.values()):
        parts.append(
            f"<div>{pio.to_html(fig, include_plotlyjs=(n == 0), full_html=False, default_height='380px', config={'displaylogo': False, 'responsive': True})}</div>"
        )
    counts = run.counts()
    summary = " ".join(f"<span><b>{v}</b> {k.replace('_', ' ')}</span>" for k, v in counts.items() if v)
    changed_title, rows = _changed_rows(run, diff, trace_url)
    table = (
        "<table><tr><th>case</th><th>what</th><th>before</th><th>after</th><th></th><th>run</th><th>captured from</th></tr>"
        + "".join(rows)
        + "</table>"
        if rows
        else "<p>None.</p>"
    )
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"
        f"<p class='summary'>{len(run.results)} cases in {run.seconds:.1f} s on {run.jobs} threads, "
        f"{run.started_at:%Y-%m-%d %H:%M} UTC: {summary}</p>"
        f"<div class='grid'>{''.join(parts)}</div>"
        f"<h2>{html.escape(changed_title)}</h2>{table}</body></html>"
    )


def write_report(
    path: Path,
    run: EvalRun,
    diff: BaselineDiff | None = None,
    *,
    title: str = "groundgate eval",
    trace_url: str | None = None,
) -> tuple[Path, Path]:
    """Write the HTML report to `path` and its figures as JSON next to it (`.json`); both paths."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(run, diff, title=title, trace_url=trace_url), encoding="utf-8")
    data: dict[str, Any] = {
        "summary": run.counts(),
        "figures": figures_json(report_figures(run)),
        "cases": [r.model_dump(mode="json", exclude={"observed": {"answer"}}) for r in run.results],
        "changes": [c.model_dump(mode="json") for c in diff.changes] if diff is not None else None,
    }
    tool_rates: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in run.results:
        for call in r.observed.tool_calls if r.observed else []:
            tool_rates[call.tool][0] += call.status in _FAILED_TOOL
            tool_rates[call.tool][1] += 1
    data["tool_failure_rates"] = {t: {"failed": f, "calls": c} for t, (f, c) in sorted(tool_rates.items())}
    json_path = path.with_suffix(".json")
    json_path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path, json_path
