"""Qualified evidence of a run, in one shape for the executor, the gatekeeper and the verifier."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from groundgate.contracts import EvidenceType, ToolResult, ToolStatus, VerifiedFact
from groundgate.verify import fidelity
from groundgate.verify.gatekeeper import render_fact_value
from groundgate.verify.text import is_cjk_text


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """One document passage or verified fact that a claim may cite."""

    invocation_id: str
    citation_id: str
    tool: str
    source: str
    text: str
    """What the verifier reads: the passage, or the fact rendered as a readable line."""
    quote_text: str
    """What a citation's excerpt must be quoted from (the gatekeeper checks against this)."""
    evidence_type: EvidenceType
    round: int
    score: float = 0.0
    fact_type: str = ""


def render_fact(fact: VerifiedFact) -> str:
    """A readable one-line rendering of a fact, naming what it is about.

    Log lines read like log lines, metric summaries like `name{labels} 13:35–14:35: max 100 at
    14:05 …`; any other fact as `type [ref]: value`.
    """
    value = fact.value
    if fact.fact_type == "log.line" and isinstance(value, dict):
        ts = str(value.get("ts", ""))[:19].replace("T", " ")
        return f"{ts} {value.get('service', '?')} {value.get('level', '?')}: {value.get('message', '')}"
    if fact.fact_type == "metric.summary" and isinstance(value, dict):
        labels = ",".join(f"{k}={v}" for k, v in dict(value.get("labels") or {}).items())
        span = (
            f"{str(value.get('first_at', ''))[:16].replace('T', ' ')}–{str(value.get('last_at', ''))[11:16]}"
        )
        return (
            f"{value.get('name')}{{{labels}}} {span} UTC: max {_plain(value.get('max'))} at "
            f"{str(value.get('max_at', ''))[11:16]}, min {_plain(value.get('min'))}, "
            f"mean {_plain(value.get('mean'))}, last {_plain(value.get('last'))}"
        )
    if isinstance(value, dict):
        body = ", ".join(
            f"{key} {_plain(val)}" for key, val in value.items() if val not in (None, "", [], {})
        )
    else:
        body = _plain(value)
    return f"{fact.fact_type} [{fact.fact_ref}]: {body}"


#: Facts kept for the record but too long to quote as a claim (the summary says the same).
BULKY_FACT_TYPES = frozenset({"metric.points"})


def _fact_source(fact: VerifiedFact) -> str:
    """Where a fact came from, as a person would look it up (a log file and line, an order id)."""
    if isinstance(fact.value, dict) and fact.value.get("source"):
        return f"{fact.source_system} {fact.value['source']}"
    return f"{fact.source_system} {fact.fact_ref}"


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def qualified_evidence(results: Iterable[ToolResult], *, limit: int) -> list[EvidenceItem]:
    """Evidence from successful calls, at most `limit` items (the candidate budget).

    Only `OK` results qualify. Items are taken round-robin across calls, each call's best first, so
    a second-round call is not crowded out by a first-round one that returned many items.
    """
    per_call = [_items_of(result) for result in results if result.status is ToolStatus.OK]
    items: list[EvidenceItem] = []
    seen: set[str] = set()
    depth = 0
    while len(items) < limit and any(depth < len(call) for call in per_call):
        for call in per_call:
            # The same passage found by two calls is one piece of evidence (cite the first call).
            if depth < len(call) and call[depth].citation_id not in seen:
                seen.add(call[depth].citation_id)
                items.append(call[depth])
        depth += 1
    return items[:limit]


def _items_of(result: ToolResult) -> list[EvidenceItem]:
    items: list[EvidenceItem] = []
    for doc in result.documents:
        items.append(
            EvidenceItem(
                invocation_id=result.invocation_id,
                citation_id=doc.citation_id,
                tool=result.tool,
                source=doc.source + (f" > {doc.heading}" if doc.heading else ""),
                text=doc.text,
                quote_text=doc.text,
                evidence_type=EvidenceType.DOCUMENT_EVIDENCE,
                round=result.round,
                score=doc.score or 0.0,
            )
        )
    for fact in result.facts:
        items.append(
            EvidenceItem(
                invocation_id=result.invocation_id,
                citation_id=fact.fact_ref,
                tool=result.tool,
                source=_fact_source(fact),
                text=render_fact(fact),
                quote_text=render_fact_value(fact.value),
                evidence_type=EvidenceType.VERIFIED_FACT,
                round=result.round,
                fact_type=fact.fact_type,
            )
        )
    return items


def evidence_by_ref(items: Sequence[EvidenceItem]) -> dict[tuple[str, str], EvidenceItem]:
    """Index evidence by (invocation id, citation id)."""
    return {(item.invocation_id, item.citation_id): item for item in items}


_ASCII_TERM = re.compile(r"(?<![A-Za-z0-9_\-./])[A-Za-z][A-Za-z0-9_\-./]*[A-Za-z0-9]")
#: ASCII words too common in Chinese questions to name what is asked about.
_COMMON_ASCII = frozenset({"id", "ids", "ok", "app", "api", "sdk", "ui", "vs", "or", "and", "the"})


def question_anchors(question: str) -> list[str]:
    """The names a question is about: identifiers, plus Latin-script terms inside a Chinese question.

    `etcd 备份保留多久？` is about `etcd`; `ERR_TIMEOUT 是什么？` about `ERR_TIMEOUT`. Evidence that
    mentions none of a question's anchors does not answer it.
    """
    anchors = [m.text for m in fidelity.extract(question) if m.kind == "identifier"]
    if is_cjk_text(question):
        anchors += [w for w in _ASCII_TERM.findall(question) if w.lower() not in _COMMON_ASCII]
    return list(dict.fromkeys(anchors))


def mentions_any(text: str, anchors: Sequence[str]) -> bool:
    lowered = text.lower()
    return any(anchor.lower() in lowered for anchor in anchors)
