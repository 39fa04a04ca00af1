"""Which fidelity findings make a claim `contradicted`, and which leave a figure only unshown.

The fidelity checks report every difference between a claim and the window read as its source; the
checker rejects only on the ones that are certain (docs/design.md §2.1, "Contradictions"): a value
changed inside a well-aligned window, a flipped polarity in a short rule, an invented error code or
path. A figure the context states elsewhere, one counting another thing, a spelled or hedged one, or
anything across languages is `no_evidence` ("unjudged"), never a contradiction. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from groundgate.text.segmentation import Span, is_cjk_text, normalize
from groundgate.verify import fidelity
from groundgate.verify.windows import ContextIndex

__all__ = ["dropped_negation", "triage"]

_DIGITS = re.compile(r"[0-9０-９]")
#: Fidelity findings that compare the claim with the aligned window; meaningless when alignment is poor.
_ALIGNMENT_DEPENDENT = frozenset({"negation_flip", "comparator_changed"})
_VALUE_CHANGES = frozenset({"number_mismatch", "currency_mismatch"})

#: Fidelity findings that mean "the evidence states another value" (a contradiction); the others
#: ("appears nowhere") mean the evidence does not state it — `no_evidence`, never a contradiction,
#: since a paraphrase may round, sum or convert a figure.
_NOT_STATED = frozenset({"number_not_in_evidence", "version_not_in_evidence"})
#: Identifier sorts whose absence from the evidence is an invented identifier (seed 000); a
#: hyphenated English word (`buzzed-about`) read as a service name is not one.
_INVENTED_IDENTIFIERS = frozenset(
    {"error_code", "http_status", "path", "url", "ip", "trace_id", "config_key"}
)
#: Across languages only values are compared; word-level findings (polarity, comparator wording,
#: an identifier spelt in the other script) cannot be judged.
_CROSS_LANGUAGE_CODES = frozenset(
    {"number_mismatch", "date_mismatch", "currency_mismatch", "unit_mismatch", "version_mismatch"}
)


_WORDED_VALUES = frozenset({"number_mismatch", "date_mismatch"})


def triage(
    claim: str,
    issues: Sequence[fidelity.FidelityIssue],
    polarity_ok: bool,
    cross_language: bool,
    index: ContextIndex,
    value_ok: bool = True,
    aligned_ok: bool = True,
    window_text: str = "",
    record: bool = False,
) -> tuple[list[fidelity.FidelityIssue], bool]:
    """The issues that make the claim `contradicted`, and whether some figure was left unjudged."""
    contradictions: list[fidelity.FidelityIssue] = []
    unjudged = False
    sorts: dict[str, str | None] | None = None
    for issue in issues:
        if issue.severity != "contradiction":
            if issue.code in _VALUE_CHANGES and (
                aligned_ok
                or (
                    _DIGITS.search(issue.claim_mention or "")
                    and not _stated_elsewhere(issue.claim_mention, index)
                )
            ):
                # A hedged figure (`约 280 分钟` over `约 180 分钟`) or a small spelled one (`三道` over
                # `两道`) that differs from the aligned window: softened from a contradiction, but
                # never shown (issue 10: a mismatch inside a claim must not pass). Against a loosely
                # aligned window too, when the context states the claim's figure nowhere (`单本累计最多收
                # 10 元` over `单册累计不超过书价`): a figure no source gives is not shown.
                unjudged = True
            elif issue.code in _VALUE_CHANGES and not _value_in_context(claim, issue.claim_mention, index):
                # A spelled figure (`after three failures` over `连续失败 4 次`) against a loosely
                # aligned window, whose value the context states nowhere: not shown.
                unjudged = True
            elif issue.code == "date_mismatch" and aligned_ok and _DIGITS.search(issue.claim_mention or ""):
                # `也就是 2025 年 1 月 5 日` (a date the claim works out) that is not the evidence's date
                # moved by the shift both state: an estimate at best, never shown.
                unjudged = True
            elif issue.code == "number_not_in_evidence" and _DIGITS.search(issue.claim_mention or ""):
                # `约 1.2 万笔` that the evidence never states: a hedge makes a figure an estimate,
                # not a shown one.
                unjudged = True
            continue
        if issue.code in _ALIGNMENT_DEPENDENT and not polarity_ok:
            # Against a loosely aligned window the flip may pair the claim with another sentence:
            # not a contradiction, but a negation or prohibition of the evidence that the claim
            # drops (`禁止直接…` retold as `也可以直接…`) is not shown either (issue 10: a flipped
            # obligation must not pass). A negation the claim adds (`没有 WiFi` over `WiFi: 无`) is
            # too often the record's own no, said in words.
            unjudged = unjudged or (issue.code == "negation_flip" and bool(issue.evidence_mention))
            continue
        if issue.code == "negation_flip" and _phrase_in_context(issue.claim_mention, index):
            # The claim's own negated phrase (`not known`) is in the context word for word: the
            # window read as its source was another sentence, not the negation's opposite.
            continue
        if cross_language and issue.code not in _CROSS_LANGUAGE_CODES:
            unjudged = True
            continue
        if issue.code in _NOT_STATED:
            unjudged = True
            continue
        if issue.code in _WORDED_VALUES and not _DIGITS.search(issue.claim_mention or ""):
            # `five survivors`, `next week`, `on Friday` against a figure or date of a long window:
            # a spelled or relative value is too often a paraphrase of another mention to reject on.
            unjudged = True
            continue
        if issue.code in _VALUE_CHANGES and (
            not value_ok
            or _stated_elsewhere(issue.claim_mention, index)
            or (not record and _counts_apart(claim, issue.claim_mention, window_text, issue.evidence_mention))
        ):
            # The claim's figure is in the context, only not in the window read as its source
            # (`Leeds are 13th with 52 points` against the sentence that has `13th`): a summary
            # joins facts from several places, so this is not shown, but not a changed value.
            unjudged = True
            continue
        if issue.code == "identifier_not_in_evidence":
            if sorts is None:
                sorts = {m.text: m.qualifier for m in fidelity.extract(claim) if m.kind == "identifier"}
            if sorts.get(issue.claim_mention or "") not in _INVENTED_IDENTIFIERS:
                unjudged = True
                continue
        contradictions.append(issue)
    return contradictions, unjudged


def _value_in_context(claim: str, mention: str | None, index: ContextIndex) -> bool:
    """The value of the claim's figure `mention` (spelled or not) is some figure of the context."""
    values = {m.value for m in fidelity.extract(claim) if m.text == mention and m.kind in _FIGURE_KINDS}
    # A spelled one (`一张审批通过的变更单`, "a single ticket") is an article as often as a count.
    return not values or values <= {1} or bool(values & _context_values(index.all_text))


_FIGURE_KINDS = frozenset({"number", "count", "amount", "percent", "duration"})


@lru_cache(maxsize=64)
def _context_values(text: str) -> frozenset[object]:
    return frozenset(m.value for m in fidelity.extract(text) if m.kind in _FIGURE_KINDS)


def _stated_elsewhere(mention: str | None, index: ContextIndex) -> bool:
    """The claim's literal figure (with its digits) occurs somewhere in the context."""
    if not mention or not _DIGITS.search(mention):
        return False
    needle = normalize(index.canonical(mention))
    return bool(needle) and index.in_normalized(needle)


_SKIP_AFTER = frozenset({"a", "an", "the", "per", "of", "-", "each"})
_HEAD_EN = re.compile(r"[A-Za-z][A-Za-z'-]*")


def _head(text: str, mention: str | None) -> str:
    """The word a figure counts (`52 *points*`, `£60 a *day*`, `600 *元*`), or ``."""
    if not mention:
        return ""
    at = text.find(mention)
    if at < 0:
        return ""
    rest = text[at + len(mention) :].lstrip(" -")
    if rest[:1] and is_cjk_text(rest[:1]):
        return rest[:1]
    words = [w.lower() for w in _HEAD_EN.findall(rest[:40])]
    words = [w for w in words if w not in _SKIP_AFTER]
    return words[0].rstrip("s") if words else ""


def _counts_apart(claim: str, claim_mention: str | None, window: str, evidence_mention: str | None) -> bool:
    """The two figures count different things (`52 points` / `13th`, `£60 a day` / `£100,000 a
    week`, `Euro 2015` / a `2-1` score): a summary's figure set beside another of its sentence's,
    not a changed value. Both must name what they count for this to hold."""
    if not (_BARE_FIGURE.fullmatch(claim_mention or "") and _BARE_FIGURE.fullmatch(evidence_mention or "")):
        return False  # `2 万元`, `30 days`, `80%`: the unit is part of the figure and was compared
    mine, theirs = _head(claim, claim_mention), _head(window, evidence_mention)
    return bool(mine) and bool(theirs) and mine != theirs


_BARE_FIGURE = re.compile(r"[£$€¥]?\s*\d[\d.,]*")


def _phrase_in_context(mention: str | None, index: ContextIndex) -> bool:
    """A phrase of two or more words of the claim occurs in the context as written."""
    if not mention or (not is_cjk_text(mention) and len(mention.split()) < 2):
        return False
    needle = normalize(index.canonical(mention))
    return len(needle) >= 4 and index.in_normalized(needle)


#: "要在 15 分钟内签到，否则…释放" restates "15 分钟内未签到…释放": the negation moved to "otherwise".
_OTHERWISE = re.compile(r"^\W*(?:否则|不然|要不然|otherwise|or else)", re.IGNORECASE)


def dropped_negation(
    unit: Span,
    claim: Span,
    aligned: str | fidelity.EvidenceIndex,
    evidence: fidelity.EvidenceIndex,
    index: ContextIndex,
) -> list[str]:
    """The negation a clause of `claim` drops against its own aligned window ("沙箱环境和正式环境一样会限流"
    over "沙箱环境不限流", "Orbit guarantees that events arrive in order" over "not guaranteed"), as
    reason codes. Only a clause that states no negation at all, and is not followed by "otherwise":
    one that adds a negation ("can't do more than 12 hours" over "capped at 12") or moves it
    ("…签到，否则释放") is too often a paraphrase."""
    if _OTHERWISE.match(claim.text[unit.end - claim.start :]) or any(
        m.kind == "negation" for m in fidelity.extract(unit.text)
    ):
        return []
    issues = [
        i
        for i in fidelity.check_claim(unit.text, aligned, evidence)
        if i.code == "negation_flip" and not i.claim_mention and i.evidence_mention
    ]
    found, _ = triage(unit.text, issues, True, index.cross_language, index)
    return [f"unit_flip:{i.code}" for i in found]
