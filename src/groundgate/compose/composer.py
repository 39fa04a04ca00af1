"""The composer: turns the verifier's decision into what the user sees (docs/design.md §2 "用户侧输出协议").

- `NORMAL`: only the claims the verifier allowed, each followed by its citation marker `[n]`;
- `LOW_CONFID_WITH_DISCLAIMER`: the fixed disclaimer, then the verified claims the verifier allows
  (each with its citation markers), then the gaps — taken only from the verifier's gaps, never written
  freely. The executor's own answer text never reaches the user: advice or statements it did not
  claim, or claimed without evidence, are not shown (docs/design.md: the composer writes only what the
  verifier allows);
- `DEGRADED`: the fixed degraded template with confirmed facts, gaps (listed once) and next steps.
  It never contains the executor's answer.

Pure code: no model, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from groundgate.compose.templates import Language, templates
from groundgate.contracts import ComposerOutput, FactCategory, OutputKind

_SENTENCE_ENDS = ("。", "！", "？", ".", "!", "?", "；", ";")
_ALLOWED = frozenset({FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT})


@dataclass(frozen=True, slots=True)
class Citation:
    """One numbered source the answer cites."""

    number: int
    citation_id: str
    source: str
    excerpt: str
    invocation_id: str


@dataclass(frozen=True, slots=True)
class ComposableClaim:
    """A claim as the composer needs it: text, verdict category and the citations it may show."""

    claim_id: str
    text: str
    category: FactCategory
    key: bool
    citations: tuple[Citation, ...] = ()


@dataclass(slots=True)
class ComposedAnswer:
    """The composed text and the citations it refers to."""

    output: ComposerOutput
    citations: list[Citation] = field(default_factory=list)


def language_of(question: str) -> Language:
    """zh-CN when the question is mostly Chinese, else en."""
    cjk = sum(1 for ch in question if "\u4e00" <= ch <= "\u9fff")
    letters = sum(1 for ch in question if ch.isalpha())
    return "zh-CN" if letters and cjk / letters >= 0.2 else "en"


def _numbered(claims: Sequence[ComposableClaim]) -> tuple[list[Citation], dict[str, list[int]]]:
    """Number the distinct citations in claim order; map claim id → its citation numbers."""
    numbers: dict[tuple[str, str], int] = {}
    ordered: list[Citation] = []
    per_claim: dict[str, list[int]] = {}
    for claim in claims:
        marks: list[int] = []
        for cite in claim.citations:
            key = (cite.invocation_id, cite.citation_id)
            if key not in numbers:
                numbers[key] = len(ordered) + 1
                ordered.append(
                    Citation(numbers[key], cite.citation_id, cite.source, cite.excerpt, cite.invocation_id)
                )
            marks.append(numbers[key])
        per_claim[claim.claim_id] = marks
    return ordered, per_claim


def _sources_block(citations: Sequence[Citation], heading: str) -> str:
    lines = [heading]
    for c in citations:
        lines.append(f"[{c.number}] {c.source}")
    return "\n".join(lines)


def _body(claims: Sequence[ComposableClaim], language: Language) -> tuple[str, list[Citation]]:
    """The claims as sentences with their citation markers, and the citations they refer to."""
    citations, marks = _numbered(claims)
    sentences = []
    for claim in claims:
        text = claim.text.strip()
        markers = "".join(f"[{n}]" for n in dict.fromkeys(marks[claim.claim_id]))
        sentences.append(f"{text}{markers}")
    if all(s.rstrip("[]0123456789").endswith(_SENTENCE_ENDS) for s in sentences):
        body = ("" if language == "zh-CN" else " ").join(sentences)
    else:  # record-like claims (log lines, metric summaries) read best one per line
        body = "\n".join(f"- {s}" for s in sentences)
    return body, citations


def compose_normal(claims: Sequence[ComposableClaim], language: Language) -> ComposedAnswer:
    """State only the allowed claims, each with its citation markers, then the source list."""
    t = templates(language)
    allowed = [c for c in claims if c.category in _ALLOWED and c.citations]
    body, citations = _body(allowed, language)
    text = body + ("\n\n" + _sources_block(citations, t.sources_heading) if citations else "")
    return ComposedAnswer(
        ComposerOutput(
            output_kind=OutputKind.NORMAL,
            text=text,
            language=language,
            used_claim_ids=[c.claim_id for c in allowed],
        ),
        citations,
    )


def compose_disclaimer(
    claims: Sequence[ComposableClaim], gaps: Sequence[str], language: Language
) -> ComposedAnswer:
    """Seed 000 template: the disclaimer, the verified claims with their citations, the verifier's gaps.

    Only supported claims that cite evidence are stated; nothing else of the executor's output is.
    """
    t = templates(language)
    allowed = [c for c in claims if c.category in _ALLOWED and c.citations]
    body, citations = _body(allowed, language)
    parts = [t.disclaimer, "", body]
    if gaps:
        parts += ["", t.gaps_heading, *(f"- {g}" for g in gaps)]
    if citations:
        parts += ["", _sources_block(citations, t.sources_heading)]
    return ComposedAnswer(
        ComposerOutput(
            output_kind=OutputKind.LOW_CONFID_WITH_DISCLAIMER,
            text="\n".join(parts),
            language=language,
            used_claim_ids=[c.claim_id for c in allowed],
            gaps=list(gaps),
        ),
        citations,
    )


def compose_degraded(
    confirmed: Sequence[ComposableClaim],
    gaps: Sequence[str],
    language: Language,
    *,
    failed_tools: Sequence[str] = (),
) -> ComposedAnswer:
    """Seed 000 template: confirmed facts (directly evidenced claims only), gaps, next steps."""
    t = templates(language)
    confirmed_claims = [c for c in confirmed if c.category == FactCategory.DIRECT_EVIDENCE and c.citations]
    citations, marks = _numbered(confirmed_claims)
    confirmed_lines = [
        f"- {c.text.strip()}" + "".join(f"[{n}]" for n in dict.fromkeys(marks[c.claim_id]))
        for c in confirmed_claims
    ] or [f"- {t.nothing_confirmed}"]
    gap_lines = [f"- {g}" for g in gaps] or [f"- {t.no_gaps_listed}"]
    # The gaps are listed once, above; the next step points at them instead of repeating each one.
    steps = [t.next_step_fill_gap] if gaps else []
    if failed_tools:
        steps.append(t.next_step_check_tools.format(tools=", ".join(dict.fromkeys(failed_tools))))
    if not gaps and not failed_tools:
        steps.append(t.next_step_rephrase)
    steps.append(t.next_step_manual_review)
    parts = [
        t.degraded_intro,
        "",
        t.confirmed_heading,
        *confirmed_lines,
        "",
        t.degraded_gaps_heading,
        *gap_lines,
        "",
        t.next_steps_heading,
        *(f"- {s}" for s in steps),
    ]
    if citations:
        parts += ["", _sources_block(citations, t.sources_heading)]
    return ComposedAnswer(
        ComposerOutput(
            output_kind=OutputKind.DEGRADED,
            text="\n".join(parts),
            language=language,
            used_claim_ids=[c.claim_id for c in confirmed_claims],
            gaps=list(gaps),
        ),
        citations,
    )
