"""Qualified evidence of a run, in one shape for the executor, the gatekeeper and the verifier.

Two safeguards live here, so that every role sees the same evidence:

- **Instructions are never evidence.** An item's `text` (what the executor and the verifier read)
  has its instruction-like sentences blanked out, offsets kept (`groundgate.text.instructions`:
  those its tool marked and those found now); `quote_text` stays exactly as the tool returned it,
  since excerpts are checked against that (and the gatekeeper refuses one that quotes an instruction).
- **Higher authority wins.** `outranking_conflicts` finds the passages of higher `Authority` that
  contradict a claim resting on lower-authority passages: the fidelity checks
  (`groundgate.verify.fidelity.check_claim`: a changed number, currency, unit, comparator, date or
  version, a flipped negation) run between the claim and the best-aligned sentence of each higher
  passage. The verifier marks such a claim `contradicted`; the extractive executor does not propose
  it. Passages of equal authority that disagree are left to the ordinary checks; live facts carry no
  document authority and are not compared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from groundgate.contracts import EvidenceType, ToolResult, ToolStatus, VerifiedFact
from groundgate.contracts.evidence import Authority
from groundgate.text.instructions import mask_instructions
from groundgate.text.segmentation import is_cjk_text, split_sentences, tokenize
from groundgate.verify import fidelity
from groundgate.verify.gatekeeper import render_fact_value
from groundgate.verify.synonyms import canonical


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """One document passage or verified fact that a claim may cite."""

    invocation_id: str
    citation_id: str
    tool: str
    source: str
    text: str
    """What the verifier reads: the passage, or the fact rendered as a readable line, with
    instruction-like text blanked out (same offsets)."""
    quote_text: str
    """What a citation's excerpt must be quoted from (the gatekeeper checks against this)."""
    evidence_type: EvidenceType
    round: int
    score: float = 0.0
    fact_type: str = ""
    authority: Authority | None = None
    """A document passage's authority level; None for live facts."""
    value: Any = None
    """A fact's value as the tool returned it (the recovery of a metric series is computed from it)."""


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
    if fact.fact_type == "metric.points" and isinstance(value, dict):
        # The series as a person reads it: `name{labels} UTC, max per 180 s: 2026-03-14 13:00 0.18, 13:03 …`.
        labels = ",".join(f"{k}={v}" for k, v in dict(value.get("labels") or {}).items())
        shown: list[str] = []
        day = ""
        for point in value.get("points") or []:
            if isinstance(point, list | tuple) and len(point) == 2:
                stamp = str(point[0])
                at = stamp[11:16] if stamp[:10] == day else stamp[:16].replace("T", " ")
                day = stamp[:10]
                shown.append(f"{at} {_plain(point[1])}")
        step = value.get("step_seconds")
        how = f", {value.get('aggregation', 'max')} per {step} s" if step else ""
        return f"{value.get('name')}{{{labels}}} UTC{how}: " + ", ".join(shown)
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


def qualified_evidence(
    results: Iterable[ToolResult], *, limit: int, relevance: Callable[[EvidenceItem], float] | None = None
) -> list[EvidenceItem]:
    """Evidence from successful calls, at most `limit` items (the candidate budget).

    Only `OK` results qualify. Items are taken round-robin across calls, each call's best first, so
    a second-round call is not crowded out by a first-round one that returned many items. With
    `relevance`, each call's items are taken most relevant first (ties keep the tool's order): of the
    five series a metric query returns, the one the question names is not left out.
    """
    per_call = [_items_of(result) for result in results if result.status is ToolStatus.OK]
    if relevance is not None:
        per_call = [sorted(call, key=lambda item: -relevance(item)) for call in per_call]
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
                text=mask_instructions(doc.text, doc.instruction_spans),
                quote_text=doc.text,
                evidence_type=EvidenceType.DOCUMENT_EVIDENCE,
                round=result.round,
                score=doc.score or 0.0,
                authority=doc.authority_level,
            )
        )
    for fact in result.facts:
        items.append(
            EvidenceItem(
                invocation_id=result.invocation_id,
                citation_id=fact.fact_ref,
                tool=result.tool,
                source=_fact_source(fact),
                text=mask_instructions(render_fact(fact)),
                quote_text=render_fact_value(fact.value),
                evidence_type=EvidenceType.VERIFIED_FACT,
                round=result.round,
                value=fact.value,
                fact_type=fact.fact_type,
            )
        )
    return items


def evidence_by_ref(items: Sequence[EvidenceItem]) -> dict[tuple[str, str], EvidenceItem]:
    """Index evidence by (invocation id, citation id)."""
    return {(item.invocation_id, item.citation_id): item for item in items}


def every_evidence_ref(results: Iterable[ToolResult]) -> dict[tuple[str, str], EvidenceItem]:
    """Every item of every successful call, by (invocation id, citation id), the same passage once
    per call that returned it: a claim may cite any call that found it (the executor's candidate
    list and a deduplicated one may keep different calls for the same passage)."""
    return evidence_by_ref([item for r in results if r.status is ToolStatus.OK for item in _items_of(r)])


# --------------------------------------------------------------------------- authority

#: Fidelity findings that mean two statements disagree about the same thing. Findings that only say
#: the claim names something the passage does not (`*_not_in_evidence`) are no disagreement: a
#: higher passage that does not mention a figure has not contradicted it.
DISAGREEMENT_CODES: Final = frozenset(
    {
        "number_mismatch",
        "currency_mismatch",
        "unit_mismatch",
        "comparator_changed",
        "negation_flip",
        "date_mismatch",
        "version_mismatch",
    }
)
#: Share of a claim's words (figures aside) a higher sentence must hold to be about the same thing.
_ALIGNMENT: Final = 0.6
_FIGURE = re.compile(r"^[\d.,%]+$")


@dataclass(frozen=True, slots=True)
class AuthorityConflict:
    """A passage of higher authority than a claim's own evidence that contradicts the claim."""

    invocation_id: str
    citation_id: str
    authority: Authority
    sentence: str
    """The sentence of that passage the claim was compared with."""
    codes: tuple[str, ...]
    """The fidelity findings (`number_mismatch`, `negation_flip`, ...)."""


def outranking_conflicts(
    claim: str, cited: Sequence[EvidenceItem], evidence: Sequence[EvidenceItem]
) -> list[AuthorityConflict]:
    """Passages of `evidence` that outrank every document `claim` cites and contradict it.

    A claim citing no document (facts, nothing) is out of scope: []. See the module docs.
    """
    ranks = [item.authority.rank for item in cited if item.authority is not None]
    if not ranks:
        return []
    own = max(ranks)
    words = {t for t in tokenize(claim) if not _FIGURE.match(t)}
    if not words:
        return []
    conflicts: list[AuthorityConflict] = []
    for item in evidence:
        if item.authority is None or item.authority.rank <= own:
            continue
        sentence = _aligned_sentence(words, item.text)
        if sentence is None:
            continue
        codes = tuple(
            dict.fromkeys(
                issue.code
                for issue in fidelity.check_claim(claim, sentence, item.text)
                if issue.severity == "contradiction" and issue.code in DISAGREEMENT_CODES
            )
        )
        if codes:
            conflicts.append(
                AuthorityConflict(item.invocation_id, item.citation_id, item.authority, sentence, codes)
            )
    return conflicts


def _aligned_sentence(words: set[str], text: str) -> str | None:
    """The sentence of `text` sharing most of `words`, when it shares enough to be about the same."""
    best: tuple[float, str] | None = None
    for sentence in split_sentences(text):
        shared = len(words & set(tokenize(sentence.text)))
        share = shared / len(words)
        if shared >= 2 and share >= _ALIGNMENT and (best is None or share > best[0]):
            best = (share, sentence.text)
    return best[1] if best else None


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
    """Some anchor is in `text`, hyphens, underscores and spaces alike (`per-tenant` is said by "per
    tenant", `payment-gateway` by "payment gateway"), or in another language through the bundled
    lexicon (`rate-limit` is said by "限流", `payment-gateway` by "支付网关")."""
    folded = _JOINERS.sub(" ", text.lower())
    spaced = [_JOINERS.sub(" ", anchor.lower()) for anchor in anchors]
    if any(anchor in folded for anchor in spaced):
        return True
    concepts = [c for c in (_concept(a) for a in spaced) if c]
    return bool(concepts) and any(c in _canonical_text(text) for c in concepts)


_JOINERS = re.compile(r"[\s_\-]+")


@lru_cache(maxsize=4096)
def _concept(anchor: str) -> str:
    """The lexicon's concept marker of a whole anchor (`rate limit` → its marker), else ""."""
    folded = canonical(anchor, cross_language=True).strip()
    return folded if folded and " " not in folded and folded.startswith("qz") else ""


@lru_cache(maxsize=1024)
def _canonical_text(text: str) -> str:
    return canonical(text, cross_language=True)
