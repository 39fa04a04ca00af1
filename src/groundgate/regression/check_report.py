"""The grounding checker's evaluation as a report people can look at: one self-contained HTML file
(plotly inlined, opens offline) and the same figures as JSON — what `groundgate check-eval --report
out.html` writes for a labelled check set.

From `check-eval`'s `EvalReport`: the headline figures (precision, recall, F1, balanced accuracy of
the hallucinated class, flagged = `LOW_CONFID` or `REJECT`, and with `REJECT` alone; `REJECT`
precision), the label × verdict confusion matrix, F1 and balanced accuracy per breakdown value
(language, kind, …), and the calibration of the support score (each bin's mean score against its
observed hallucination rate, with how many answers it holds).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plotly.graph_objects import Figure  # type: ignore[import-untyped,unused-ignore]

    from groundgate.evaluation.scoring import EvalReport

__all__ = ["check_report_figures", "render_check_report", "write_check_report"]

_LAYOUT: dict[str, Any] = {
    "template": "plotly_white",
    "height": 380,
    "margin": {"l": 70, "r": 20, "t": 50, "b": 60},
}
_VERDICTS = ("PASS", "LOW_CONFID", "REJECT")


def _confusion(report: EvalReport) -> Figure:
    import plotly.graph_objects as go  # type: ignore[import-untyped,unused-ignore]

    labels = sorted(report.confusion_table)
    verdicts = [
        *_VERDICTS,
        *sorted({v for row in report.confusion_table.values() for v in row} - set(_VERDICTS)),
    ]
    z = [[report.confusion_table[label].get(verdict, 0) for verdict in verdicts] for label in labels]
    fig = go.Figure(
        go.Heatmap(z=z, x=verdicts, y=labels, colorscale="Blues", texttemplate="%{z}", showscale=False)
    )
    fig.update_layout(
        title="Label (rows) × verdict (columns)",
        xaxis={"title": "verdict", "type": "category"},
        yaxis={"title": "label", "type": "category"},
        **_LAYOUT,
    )
    return fig


def _breakdowns(report: EvalReport) -> Figure:
    import plotly.graph_objects as go  # type: ignore[import-untyped,unused-ignore]

    names: list[str] = []
    f1: list[float] = []
    balanced: list[float] = []
    counts: list[int] = []
    for field, values in report.breakdowns.items():
        for value, group in sorted(values.items()):
            names.append(f"{field}={value}")
            f1.append(group.flagged.f1)
            balanced.append(group.flagged.balanced_accuracy)
            counts.append(group.flagged.count)
    if not names:  # input lines without `lang`/`kind`: the groups `check-eval` made
        for value, figures in sorted(report.by_group.items()):
            names.append(value)
            f1.append(figures.f1)
            balanced.append(figures.balanced_accuracy)
            counts.append(figures.count)
    fig = go.Figure(
        [
            go.Bar(
                name="F1 (hallucinated)",
                x=names,
                y=f1,
                text=[f"n={n}" for n in counts],
                textposition="outside",
            ),
            go.Bar(name="balanced accuracy", x=names, y=balanced),
        ]
    )
    fig.update_layout(
        title="Per breakdown (flagged = LOW_CONFID or REJECT)",
        yaxis_range=[0, 1.15],
        barmode="group",
        **_LAYOUT,
    )
    return fig


def _calibration(report: EvalReport) -> Figure:
    import plotly.graph_objects as go  # type: ignore[import-untyped,unused-ignore]

    bins = [b for b in report.reliability if b.count and b.hallucination_rate is not None]
    fig = go.Figure(
        [
            go.Scatter(
                x=[b.mean_score if b.mean_score is not None else (b.low + b.high) / 2 for b in bins],
                y=[b.hallucination_rate for b in bins],
                mode="lines+markers+text",
                text=[f"n={b.count}" for b in bins],
                textposition="top center",
                name="observed",
            ),
            go.Scatter(
                x=[0, 1],
                y=[1, 0],
                mode="lines",
                line={"dash": "dot", "color": "#999"},
                name="ideal (1 − score)",
            ),
        ]
    )
    source = report.score_source or "support score"
    fig.update_layout(
        title=f"Calibration: {source} against the observed hallucination rate",
        xaxis={"title": f"mean {source} of the bin", "range": [0, 1.02]},
        yaxis={"title": "hallucinated share", "range": [0, 1.05]},
        **_LAYOUT,
    )
    return fig


def check_report_figures(report: EvalReport) -> dict[str, Figure]:
    """The figures by name: `confusion`, `breakdowns`, `calibration`."""
    return {
        "confusion": _confusion(report),
        "breakdowns": _breakdowns(report),
        "calibration": _calibration(report),
    }


def _headline(report: EvalReport) -> str:
    rows = []
    for name, figures in (
        ("flagged (LOW_CONFID or REJECT)", report.flagged),
        ("REJECT only", report.reject_only),
    ):
        rows.append(
            f"<tr><td>{name}</td><td>{figures.count}</td><td>{figures.precision:.3f}</td><td>{figures.recall:.3f}</td>"
            f"<td>{figures.f1:.3f}</td><td>{figures.balanced_accuracy:.3f}</td></tr>"
        )
    return (
        "<table><tr><th>hallucinated when</th><th>n</th><th>precision</th><th>recall</th><th>F1</th>"
        "<th>balanced accuracy</th></tr>" + "".join(rows) + "</table>"
        f"<p>REJECT precision: <b>{report.reject_precision:.3f}</b></p>"
    )


_STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222} .figures{max-width:1100px}
table{border-collapse:collapse;margin:8px 0} td,th{border-bottom:1px solid #ddd;padding:4px 10px;text-align:left}
"""


def render_check_report(report: EvalReport, *, title: str = "groundgate check-eval", source: str = "") -> str:
    import plotly.io as pio  # type: ignore[import-untyped,unused-ignore]

    parts = [
        pio.to_html(
            fig,
            include_plotlyjs=(n == 0),
            full_html=False,
            default_height="400px",
            config={"displaylogo": False},
        )
        for n, fig in enumerate(check_report_figures(report).values())
    ]
    where = f"<p>Set: <code>{html.escape(source)}</code></p>" if source else ""
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>{where}{_headline(report)}"
        f"<div class='figures'>{''.join(f'<div>{p}</div>' for p in parts)}</div></body></html>"
    )


def write_check_report(
    path: Path, report: EvalReport, *, title: str = "groundgate check-eval", source: str = ""
) -> tuple[Path, Path]:
    """Write the HTML report to `path` and, beside it (`.json`), the report and its figures."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_check_report(report, title=title, source=source), encoding="utf-8")
    data = {
        "report": report.model_dump(mode="json"),
        "figures": {name: json.loads(fig.to_json()) for name, fig in check_report_figures(report).items()},
    }
    json_path = path.with_suffix(".json")
    json_path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path, json_path
