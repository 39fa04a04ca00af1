"""Split an answer into claims and decide which are key facts (seed 000 "关键事实范围").

Key facts: root causes, error code / interface / component attributions, statements about what
logs or documents show, fix conclusions, and anything with a number or identifier. General advice,
risk warnings and other non-factual text are not key unless they claim to be proven.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundgate.text.segmentation import Span, is_cjk_text, split_sentences, tokenize

_DIGIT = re.compile(
    r"[0-9０-９]|[零一二两三四五六七八九十百千万亿]+(?:元|块|天|日|次|个|人|小时|分钟|秒|年|月|%|倍|级|周)"
)
_IDENTIFIER = re.compile(
    r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"  # ERR_TIMEOUT
    r"|(?<![\w/])/[A-Za-z0-9_.{}-]+(?:/[A-Za-z0-9_.{}-]+)+"  # /api/v1/orders
    r"|\b[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+\b"  # payment-gateway, order_service
    r"|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b"  # camelCase, OrderService
)
_EVIDENCE_STATEMENT = re.compile(
    r"日志(?:显示|表明|中)|文档(?:说明|显示|规定|指出)|(?:制度|政策|规定|手册|runbook)(?:规定|要求|显示|说明)|监控(?:显示|表明)|指标(?:显示|表明)"
    r"|根因|原因是|导致|由于|因为|修复|已解决|已恢复|归属|来自|属于"
    r"|\b(?:logs?|documents?|docs?|metrics?|dashboards?|runbooks?|policy|traces?) (?:show|shows|showed|indicate|indicates|say|says|state|states|confirm|confirms)\b"
    r"|\broot cause\b|\bcaused by\b|\bbecause\b|\bdue to\b|\bfixed\b|\bresolved\b|\bbelongs? to\b|\bcomes? from\b|\breturned by\b",
    re.IGNORECASE,
)
_ADVICE = re.compile(
    r"^(?:建议|推荐|可以考虑|不妨|请|如有(?:疑问|问题|需要)|如需|如果(?:您|你)|您可以|你可以|可联系|欢迎|注意|提醒|希望|祝|以下是|下面是|总结(?:一下)?[:：]?$)"
    r"|(?:建议您?|请(?:您|务必)?|谨慎参考|仅供参考|以.+为准)"
    r"|^(?:you (?:may|might|can|could|should)|we (?:recommend|suggest)|i (?:recommend|suggest)|consider|please|feel free|"
    r"if you|make sure|be sure|remember|note that|it is (?:recommended|advisable|a good idea)|let me know|hope this|"
    r"here(?: is|'s| are)|in summary|to summari[sz]e|overall,?$)"
    r"|\b(?:is recommended|you may want to|you might want to|it'?s a good idea|for reference only)\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"[?？]\s*$")
#: A short sentence that only opens a list (`给你几个要点：`, `平时还有几点要注意：`, "The steps are:"): what
#: follows carries the facts (docs/design.md §2.1, "Session 32").
_LEAD_IN = re.compile(r"[:：]\s*$")
_LEAD_IN_WORDS = 6
# A bare yes/no reply ("不会。", "No.", "暂时不行。"): the sentences after it carry the checkable facts.
_BARE_REPLY = re.compile(
    r"^(?:(?:暂时|目前|当然|一般)?(?:是的?|对|不是|不对|会|不会|能|不能|可以|不可以|不行|行|需要|不需要|不用|要|不要|应该|不应该|有|没有)(?:的|了)?"
    r"|(?:yes|no|nope|correct|right|not really|not yet|not necessarily)(?:,? (?:it (?:is|does|can|will)(?:n't)?|you (?:can|do|should)(?:n't)?))?)[。！!.，,]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class KeyDecision:
    """Whether a claim is a key fact, and why (readable reason code)."""

    key: bool
    reason: str


def split_claims(answer: str) -> list[Span]:
    """Sentence-level claims of an answer (Chinese and English), with offsets into the answer."""
    return split_sentences(answer)


def has_number_or_identifier(text: str) -> bool:
    """True when the text states a number, amount or identifier (always key, seed 000)."""
    return bool(_DIGIT.search(text) or _IDENTIFIER.search(text))


def key_decision(claim: str) -> KeyDecision:
    """Decide whether a claim is a key fact.

    Order matters: numbers and identifiers make any claim key (advice that names `5000元` still
    asserts the amount); then evidence/causal/fix statements; then advice, questions and filler are
    not key; every other declarative statement is key (a grounding checker must not wave through
    plain factual sentences just because they lack a number).
    """
    if has_number_or_identifier(claim):
        return KeyDecision(True, "key:number_or_identifier")
    if _EVIDENCE_STATEMENT.search(claim):
        return KeyDecision(True, "key:evidence_or_causal_statement")
    if _BARE_REPLY.match(claim.strip()):
        return KeyDecision(False, "not_key:bare_reply")
    if _QUESTION.search(claim):
        return KeyDecision(False, "not_key:question")
    if _ADVICE.search(claim.strip()):
        return KeyDecision(False, "not_key:advice")
    words = len(tokenize(claim))
    if words < 2:
        return KeyDecision(False, "not_key:no_content")
    if words <= _LEAD_IN_WORDS and _LEAD_IN.search(claim):
        return KeyDecision(False, "not_key:lead_in")
    return KeyDecision(True, "key:factual_statement")


# Clause boundaries of a compound sentence (issue 10 item 2). Chinese: a `，` or `；` between two
# predications; English: a comma or semicolon before a connective that starts a new assertion, or
# such a connective on its own (`but`, `because`). A boundary splits only when both sides keep
# enough words to be checked on their own (a list `A、B、C` or `X, Y and Z` stays whole).
_ZH_BOUNDARY = re.compile(
    r"[；;](?=\s*\S)"
    r"|[，,](?=\s*(?:否则|不然|但|但是|可是|然而|不过|因此|所以|因而|从而|而且|并且|此外|另外|同时|根因|原因|导致|由于|因为|逾期|超期|之后|然后"
    r"|这也是|这是|这将|这意味着|此举|如果|假如|要是|若是))"
)
_EN_BOUNDARY = re.compile(
    r"(?:[,;]\s+|\s+)(?=(?:otherwise|but|because|which|so that|so|whereas|while|although|though|and then|and)\b\s+\S)"
    r"|;\s+",
    re.IGNORECASE,
)
#: English connectives that split only after a comma or semicolon (`and`, `so`, `which`, `while` also
#: join words inside one predication: `salt and pepper`, `so far`, `which one`).
_EN_COMMA_ONLY = re.compile(r"^(?:and|so|which|while|and then)\b", re.IGNORECASE)
_MIN_UNIT_TOKENS = 2
#: A clause that only announces the next one ("另外要注意", "需要提醒的是", "please note").
_OPENER_ONLY = re.compile(
    r"^(?:另外|此外|同时|还有|最后|不过)?(?:还)?(?:要|需要|请|得)?(?:特别)?(?:注意|提醒(?:一下|您)?|说明(?:一下)?|补充(?:一下)?)"
    r"(?:的是|一点|一下)?$|^(?:also\s+|but\s+)?(?:please\s+)?note(?:\s+that)?$",
    re.IGNORECASE,
)


def split_units(claim: Span) -> list[Span]:
    """The independently checkable clauses of one claim, with offsets into the answer.

    A claim with one clause is returned as is. Each unit's `start`/`end` point into the same text as
    the claim's, so a reader sees exactly which part is unsupported.
    """
    text = claim.text
    cuts: list[int] = []
    if is_cjk_text(text):
        cuts = [m.end() for m in _ZH_BOUNDARY.finditer(text)]
    else:
        for m in _EN_BOUNDARY.finditer(text):
            after = text[m.end() :]
            if _EN_COMMA_ONLY.match(after) and not m.group(0).lstrip().startswith((",", ";")):
                continue
            cuts.append(m.end())
    if not cuts:
        return [claim]
    pieces: list[tuple[int, int]] = []
    start = 0
    for cut in [*cuts, len(text)]:
        if cut > start:
            pieces.append((start, cut))
            start = cut
    # A piece that only opens what follows ("另外要注意，如果…") joins the next one: it says nothing.
    joined: list[tuple[int, int]] = []
    for begin, end in pieces:
        if joined and _OPENER_ONLY.match(text[joined[-1][0] : joined[-1][1]].strip(" ，,；;")):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((begin, end))
    pieces = joined
    # Merge pieces too short to stand alone into their left neighbour (or the right, for the first).
    merged: list[tuple[int, int]] = []
    for begin, end in pieces:
        if (merged and len(tokenize(text[begin:end])) < _MIN_UNIT_TOKENS) or (
            merged and len(tokenize(text[merged[-1][0] : merged[-1][1]])) < _MIN_UNIT_TOKENS
        ):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((begin, end))
    units: list[Span] = []
    for begin, end in merged:
        piece = text[begin:end]
        stripped = piece.strip().rstrip("，,；;")
        if not stripped:
            continue
        left = begin + (len(piece) - len(piece.lstrip()))
        units.append(Span(stripped, claim.start + left, claim.start + left + len(stripped)))
    return units if len(units) > 1 else [claim]
