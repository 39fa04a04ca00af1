"""Evidence items as the tools return them, for tests that drive the verifier or the executor without a
workspace: one verified metric fact (`metric.points` / `metric.summary`) from its JSON value."""

from __future__ import annotations

import json
from typing import Any

from groundgate.contracts import EvidenceType
from groundgate.verify.evidence_items import EvidenceItem

__all__ = ["metric_fact"]


def metric_fact(cid: str, kind: str, value: dict[str, Any]) -> EvidenceItem:
    """A verified metric fact as the metric store returns it: `kind` is `metric.points` or
    `metric.summary`, `value` its JSON object, `cid` the citation id."""
    text = json.dumps(value)
    return EvidenceItem(
        "inv",
        cid,
        "query_metrics",
        "metric_store",
        text,
        text,
        EvidenceType.VERIFIED_FACT,
        2,
        0.0,
        kind,
        None,
        value,
    )
