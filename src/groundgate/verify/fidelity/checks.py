"""The public checks: question → plan and claim → evidence.

`compare_constraints` (use a) and `check_claim` (use b) run the per-kind checks over every mention of
the question or claim, then the negation-flip check between the two texts.
"""

from __future__ import annotations

import re

from groundgate.text.segmentation import stem, tokenize
from groundgate.verify.fidelity.check_facts import _check_date, _check_identifier, _check_version
from groundgate.verify.fidelity.check_numbers import _check_number, _check_range, _check_unattached_comparator
from groundgate.verify.fidelity.evidence import EvidenceIndex, _candidates, index_evidence
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _num_match, _same_kind
from groundgate.verify.fidelity.model import _DATE_KINDS, _NUMERIC_KINDS, FidelityIssue, Mention
from groundgate.verify.fidelity.negated_forms import (
    avoided,
    before_stated,
    excepted,
    field_left_empty,
    restriction_complement,
    unless_stated,
    warned_against,
)
from groundgate.verify.fidelity.negation import (
    _Cue,
    _Polarity,
    _polarity,
    _surface,
    prefix_negated,
    same_word,
)
from groundgate.verify.fidelity.report import _Ctx, _Report


def _another_word_agrees(words: tuple[str, ...], here: _Polarity, there: _Polarity) -> bool:
    """Another governed word both sides state with the same polarity: the cue's first word is a light
    one ("没有 binlog 备份" beside "做全量备份" over "不做 binlog 备份"; "No group has claimed" over "no one has
    claimed … the group the main suspect"), so the sides do not disagree about what is negated."""
    for w in words:
        mine, theirs = here.polarities(w), there.polarities(w)
        if mine and theirs and len(mine) == 1 and mine == theirs:
            return True
    return False


#: Cues that forbid: `禁止机动车驶入` puts the actor after the cue, `机动车不得进入` before it.
_PROHIBITIVE = frozenset({"禁止", "严禁", "不得", "不准", "不许", "不允许", "不可", "不能", "禁"})


def _both_prohibit(cue: _Cue, word: str, there: _Polarity) -> bool:
    """`禁止机动车驶入骑行道` over `机动车不得进入骑行道`: both sides forbid, one with the actor after
    its cue and one before it; a clause of the other side that states the word and forbids too is
    no flip."""
    if str(cue.mention.value) not in _PROHIBITIVE:
        return False
    return any(
        s.states(word) and any(str(c.mention.value) in _PROHIBITIVE for c in s.cues) for s in there.sentences
    )


def _negates_subject(cue: _Cue, word: str, here: _Polarity, there: _Polarity) -> bool:
    """ "Fresh cracks aren't covered" over "a warranty that covers touch faults … but not new cracks":
    the other side states `word` plainly in a clause whose own cue negates first what this side's
    negated clause is about (`crack`, written before the cue): one side negates the verb, the other its
    object, and both deny the same thing (an elided `but not X`)."""
    clause = next((s for s in here.sentences if cue in s.cues), None)
    if clause is None:
        return False
    subject = clause.about - cue.scope - {word}
    if not subject:
        return False
    for s in there.sentences:
        if not s.states(word) or s.negated(word):
            continue
        if any(same_word(w, f) for other in s.cues for f in other.focus for w in subject):
            return True
    return False


#: An imperative that forbids: `Do not …`, `Never …`, `不要…`, `请勿…`.
_IMPERATIVE_BEFORE_RX = re.compile(r"(?i:\bdo\s*|\bplease\s*)$")


def _prohibits(cue: _Cue, side: _Polarity) -> bool:
    value = str(cue.mention.value).lower()
    if value in _PROHIBITIVE or value in {"不要", "别", "勿", "请勿", "切勿", "never", "don't", "don"}:
        return True
    start = cue.mention.start
    return value == "not" and _IMPERATIVE_BEFORE_RX.search(side.text[max(0, start - 8) : start]) is not None


#: Verbs that carry no content of their own: the negated thing is the word after them.
_LIGHT_VERBS = frozenset({"进行", "做", "作", "开展", "予以", "给予", "加以", "实施", "安排", "提供"})


def _prefix_flip(src: _Polarity, oth: _Polarity) -> tuple[str, str] | None:
    """A word the claim states plainly (`parking restrictions`) that the other side, in the clause
    most about the same thing, states only in its negative-prefixed form (`parking is
    unrestricted`, `non-refundable`): a flip no cue word shows. Both words, or None."""
    for sentence in src.sentences:
        for word in sentence.about:
            if not word.isascii() or len(word) < 5:
                continue
            negative = next(
                (t for s in oth.sentences for t in s.tokens if prefix_negated(word, t)),
                None,
            )
            if negative is not None and not sentence.negated(word) and src.disagrees(word, oth):
                return word, negative
    return None


#: A bare reply to a yes/no question: `No.`, `No on both counts.`, `Yes, both.`, `不是的。`, `对。`
_BARE_REPLY = re.compile(
    r"^\s*(?:(?:no|yes|nope|yep|not really|correct|right)\b[\s,]*(?:on\s+(?:both|all)\s+counts?|to\s+both|both|"
    r"sir|indeed|exactly)?|不是的?|是的|对|不对|没错|不行|可以|不可以|不能|能)\s*[.!。！]?\s*$",
    re.IGNORECASE,
)


def _negation_issues(x: _Ctx, other: EvidenceIndex) -> None:
    """Does one side negate what the other states plainly?

    For each cue, the words it governs are looked up on the other side; when the other side states
    them too, the number of cues governing them on each side must agree in parity (double negation
    cancels: `不是不能退款` = `可以退款`). A flip needs two of the governed words on the other side, or
    one when the two texts are well aligned overall.
    """
    r = x.r
    if _BARE_REPLY.match(x.source):
        return  # "No on both counts.": a reply to the question, with no predicate of its own to flip
    src = _polarity(x.source)
    oth = other.polarity()
    prefixed = _prefix_flip(src, oth)
    if prefixed is not None:
        r.add(
            "negation_flip",
            "contradiction",
            f"The {r.side} states '{prefixed[0]}' plainly but the {r.other} says '{prefixed[1]}'.",
            prefixed[0],
            prefixed[1],
        )
        return
    if not src.cues and not oth.cues:
        return
    # Words whose polarity a cue found settled (another governed word agrees on both sides): the
    # other side's cues over the same word are not asked again (the verdict must not depend on which
    # side is read first).
    settled: set[str] = set()
    for side, here, there in ((r.side, src, oth), (r.other, oth, src)):
        asked: set[tuple[str, ...]] = set()
        for cue in here.cues:
            # A light verb the cue governs first (`尚未*进行*软包电池验证`) says little: what is negated is
            # the thing after it, which a retelling states with another verb (`软包电池验证已通过`).
            focus = cue.focus[1:] if len(cue.focus) >= 2 and cue.focus[0] in _LIGHT_VERBS else cue.focus
            if focus in asked or (focus and focus[0] in settled):
                continue  # the outcome depends on the words governed only: it was no flip before
            asked.add(focus)
            if not focus or not there.states(focus[0]):
                continue  # the negated word itself must be stated on the other side
            if sum(1 for w in focus if there.states(w)) < min(2, len(focus)):
                continue
            word = focus[0]
            if _predicate_unstated(cue.mention.end, here, there):
                continue
            # Each clause of the checked text against the clauses of the other text most about the
            # same thing (one item of a list does not speak for the others).
            if not src.disagrees(word, oth):
                continue
            if _another_word_agrees(focus[1:], here, there):
                settled.add(word)
                continue
            if _both_prohibit(cue, word, there):
                continue
            if field_left_empty(word, there.text) or avoided(word, there.text):
                continue  # `none waiting` over `waiting=0`, `not a screwdriver` over `avoid screwdrivers`
            if here is oth and excepted(oth.text, cue.mention.start, src.text):
                continue  # `定制类商品不支持…` retold as `…，定制类商品则不在此列`
            if before_stated(here.text, cue.mention.start, cue.mention.end, word, there.text):
                continue  # `商家还没接单时取消` over `商家接单前取消`
            if unless_stated(here.text, cue.mention.start, word, there.text):
                continue  # "as long as no other member has reserved it" over "unless another member …"
            if here is src and restriction_complement(here.text, cue.mention.start, word):
                continue  # "… is only for directors, so it doesn't apply to you"
            if _negates_subject(cue, word, here, there):
                continue  # "fresh cracks aren't covered" over "covers touch faults but not new cracks"
            if _prohibits(cue, here) and warned_against(word, there):
                continue  # `Do not promote before fencing` retold as a warning
            if here is oth and _denied_as_alternative(word, there.text):
                continue  # "…over live chat rather than by email" denies email as `not by email` does
            plain = r.other if side == r.side else r.side
            r.add(
                "negation_flip",
                "contradiction",
                f"The {side} says '{cue.snippet}' but the {plain} states '{_surface(there.text, word)}' "
                "without negation.",
                cue.snippet if here is src else None,
                cue.snippet if here is oth else None,
            )
            return
    if x.plan and not oth.cues:
        for cue in src.cues:
            if not cue.focus or True in src.polarities(cue.focus[0]):
                r.add(
                    "constraint_lost",
                    "warning",
                    f"The question negates ('{cue.snippet}'), and the plan states no negation at all.",
                    cue.snippet,
                    None,
                )
                return


#: `no transfer … has been agreed`: `no` before a noun, and the clause's passive or perfect verb.
_NO_NOUN_PREDICATE_RX = re.compile(
    r"[^,;.!?]{1,60}?\b(?:has|have|had|was|were|is|are|will be|would be)\s+(?:been\s+|being\s+)?"
    r"(?P<verb>[a-z]+(?:ed|en))\b",
    re.IGNORECASE,
)


_ALTERNATIVE_DENIED_RX = re.compile(r"\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to)\s+", re.IGNORECASE)


def _denied_as_alternative(word: str, text: str) -> bool:
    """`word` stands within three words after `rather than` / `instead of` in `text`."""
    for m in _ALTERNATIVE_DENIED_RX.finditer(text):
        if any(
            stem(w.lower()) == word or w.lower() == word
            for w in re.findall(r"[A-Za-z]+", text[m.end() :])[:3]
        ):
            return True
    return False


def _predicate_unstated(cue_end: int, here: _Polarity, there: _Polarity) -> bool:
    """`no transfer away from Wolfsburg has been agreed` denies the agreement, not the transfer: when
    the cue is `no` before a noun and its clause's verb (`agreed`) is not stated on the other side,
    "linked with a transfer away from Wolfsburg" is no flip."""
    if here.text[max(0, cue_end - 2) : cue_end].lower() != "no":
        return False
    found = _NO_NOUN_PREDICATE_RX.match(here.text, cue_end)
    if found is None:
        return False
    verb = tokenize(found.group("verb"))
    return bool(verb) and not there.states(verb[0])


def _run(m: Mention, x: _Ctx) -> None:
    if m.kind in _NUMERIC_KINDS:
        _check_number(m, x)
    elif m.kind == "range":
        _check_range(m, x)
    elif m.kind in _DATE_KINDS:
        _check_date(m, x)
    elif m.kind == "version":
        _check_version(m, x)
    elif m.kind == "identifier":
        _check_identifier(m, x)
    elif m.kind == "comparator" and x.plan and m.qualifier != "attached":
        _check_unattached_comparator(m, x)


def compare_constraints(question: str, plan_text: str) -> list[FidelityIssue]:
    """Use (a): every constraint of the question must survive planning unchanged.

    Amounts with their currency, percentages, durations, sizes, ranges, dates and relative periods,
    comparators, negation, versions and identifiers of `question` are looked up in `plan_text` by
    normalised value (`5千元` in the question is kept by `5000元` or by `"amount_max": 5000,
    "currency": "CNY"` in the plan). Returns one issue per constraint lost (`constraint_lost`) or
    changed (`number_mismatch`, `currency_mismatch`, `unit_mismatch`, `comparator_changed`,
    `date_mismatch`, `version_mismatch`, `negation_flip`). A lost plain number or count, a currency the
    plan never states and a negation the plan does not mention at all are warnings; the rest are
    contradictions.
    """
    plan = index_evidence(plan_text)
    x = _Ctx(question, plan, plan, _Report("question", "plan"), plan=True)
    for m in extract(question):
        _run(m, x)
    _negation_issues(x, plan)
    return x.r.issues


#: Mentions of one claim that `check_claim` compares with the evidence (the first ones). Each costs up
#: to a look-up per evidence mention of its kind; no sentence a person writes has this many figures,
#: names and cues, so only hostile input is cut short (the offline checker then refuses to call the
#: claim supported, see `groundgate.verify.offline_checker`).
MAX_CLAIM_MENTIONS = 256


def check_claim(
    claim: str,
    aligned_evidence: str | EvidenceIndex,
    all_evidence: str | EvidenceIndex,
    *,
    question: str | None = None,
    earlier: str | None = None,
) -> list[FidelityIssue]:
    """Use (b): contradiction signals between one claim and its evidence.

    `aligned_evidence` is the span that best matches the claim (chosen by the caller), `all_evidence`
    the whole context, each as text or as its `index_evidence` (build that once when checking many
    claims against one long text). Codes: `identifier_not_in_evidence`, `number_not_in_evidence`,
    `number_mismatch`, `currency_mismatch`, `unit_mismatch`, `comparator_changed`, `negation_flip`,
    `date_mismatch`, `version_mismatch`, `version_not_in_evidence`.

    A restatement in other words, units or scripts (`5千元` / `¥5,000`, `2026-03-15` /
    `2026年3月15日`, full-width digits) yields no issue. Warnings, not contradictions: small counts
    written as words (`三次`), relative periods the evidence may state as dates, and missing or
    differing figures the claim itself marks as estimates or derived (`大约42分钟`, `也就是3699元`,
    `roughly 380 mg`). Values the user stated in `question` (optional) count as given, not invented.
    The figures of `earlier` (the answer's earlier supported sentences, optional) may be the operands of
    a figure the claim works out, never a figure it states as found.
    """
    aligned = (
        aligned_evidence if isinstance(aligned_evidence, EvidenceIndex) else index_evidence(aligned_evidence)
    )
    x = _Ctx(
        claim,
        aligned,
        all_evidence if isinstance(all_evidence, EvidenceIndex) else index_evidence(all_evidence),
        _Report("claim", "evidence"),
        plan=False,
        given=index_evidence(question) if question else None,
        earlier=index_evidence(earlier) if earlier else None,
    )
    for m in extract(claim).items[:MAX_CLAIM_MENTIONS]:
        _run(m, x)
    _negation_issues(x, aligned)
    return x.r.issues


def figures_read_elsewhere(
    claim: str, aligned_evidence: str | EvidenceIndex, all_evidence: str | EvidenceIndex
) -> list[str]:
    """The claim's figures found only outside the aligned span, where that span states another value
    of the same sort (a quantity, amount, duration, percentage… — bare numbers are too loose).

    `URL 刷新每天最多 1000 条` read off the URL row (`2000 条`) while `1000 条` is the prefetch row's:
    the figure exists, but not for this subject. `check_claim` finds a value anywhere in the evidence
    (a claim may join facts from several places); this names the ones a caller that trusts its
    alignment should not count as shown (the offline checker: `no_evidence`, never `contradicted`).
    """
    aligned = (
        aligned_evidence if isinstance(aligned_evidence, EvidenceIndex) else index_evidence(aligned_evidence)
    )
    if not aligned.mentions.items:
        return []
    everything = all_evidence if isinstance(all_evidence, EvidenceIndex) else index_evidence(all_evidence)
    found: list[str] = []
    items: list[tuple[frozenset[str], tuple[Mention, ...]]] | None = None
    for m in extract(claim).items[:MAX_CLAIM_MENTIONS]:
        if m.kind not in _NUMERIC_KINDS or m.kind == "number" or not isinstance(m.value, float):
            continue
        matches = [e for e in _candidates(m, aligned, everything) if _num_match(m, e)]
        if not matches:
            continue
        if any(e in aligned.members for e in matches):
            # In the aligned span, but perhaps in another item of its list (`URL 刷新每日 2000 条，
            # …，预热每日 1000 条`): the item that names the claim's subject states another value.
            if items is None:
                items = _list_items(aligned.mentions.text)
            if _other_items_value(m, claim, items) or _qualified_otherwise(m, claim, aligned):
                found.append(m.text)
            continue
        if any(_same_kind(m, e) and e.kind == m.kind for e in aligned.mentions.items):
            found.append(m.text)
    return found


_ITEM_CUT_OR_BRACKET_RX = re.compile(r"[，,；;。\n()（）\[\]]|(?<=[.!?])\s")
_LABEL_START_RX = re.compile(r"[，,；;。:：\n]")


_HEADER_RX = re.compile(r"^([^，,；;。\n]{1,60}?)[:：](?=[^，,；;。\n]*[，,；;])")


_CJK_RX = re.compile("[\u3400-\u9fff]")
#: Where the words that qualify a figure stop: the next clause, or `or` / `and` before another value.
_QUALIFIER_END = re.compile(r"[,;.!?]|\b(?:or|and|but|while|whereas)\b")


def _qualifier(text: str, start: int, stop: int) -> set[str]:
    """The words right after a figure (`£88.50 *online*`, `£100 *by paper form*`), three at most."""
    end = _QUALIFIER_END.search(text, start, stop)
    return set(tokenize(text[start : end.start() if end else stop])[:3])


def _qualified_otherwise(m: Mention, claim: str, aligned: EvidenceIndex) -> bool:
    """`The online fee is £100` over `£88.50 online or £100 by paper form`: the word that names the
    claim's case (`online`) qualifies another figure of the window, and the claim's figure is
    qualified by words the claim does not use (`paper form`)."""
    text = aligned.mentions.text
    if _CJK_RX.search(claim) or _CJK_RX.search(text):
        # English only: a Chinese qualifier stands before its figure as often as after it (`线上 88.5
        # 元，纸质 100 元`), which the list items above already read.
        return False
    same = [e for e in aligned.mentions.items if e.kind == m.kind and _same_kind(m, e)]
    if len(same) < 2:
        return False
    # The label runs from the clause start, or the `and`/`or` before the figure, to the figure: in
    # "used 38% less water … and yielded around 9% more" the 38%'s words do not name the 9%'s case.
    cut = [found.end() for found in _LABEL_START_RX.finditer(claim, 0, m.start)]
    cut += [found.end() for found in _QUALIFIER_END.finditer(claim, 0, m.start)]
    label = set(tokenize(claim[max(cut, default=0) : m.start]))
    words = set(tokenize(claim))
    bounds = [e.start for e in same] + [len(text)]
    quals = [(e, _qualifier(text, e.end, min(b for b in bounds if b > e.start))) for e in same]
    own = [q for e, q in quals if _num_match(m, e)]
    other = [q for e, q in quals if not _num_match(m, e)]
    return bool(own) and all(q and not q & words for q in own) and any(q & label for q in other)


def _list_items(text: str) -> list[tuple[frozenset[str], tuple[Mention, ...]]]:
    """The comma-separated items of a span: each item's words and figures. A header before the first
    item (`清风 Q7 空气净化器：CADR 420 m³/h，…`) names what every item describes: its words go with each."""
    header = _HEADER_RX.match(text)
    common = frozenset(tokenize(header.group(1))) if header else frozenset()
    body = text[header.end() :] if header else text
    return [
        (common | frozenset(tokenize(item)), tuple(extract(item).items))
        for item in _cut_items(body)
        if item.strip()
    ]


def _cut_items(text: str) -> list[str]:
    """`text` cut at item separators outside brackets: `16 GB RAM (one slot, upgradeable to 48 GB)` is
    one item, its parenthesis a note on it."""
    items: list[str] = []
    start = depth = 0
    for m in _ITEM_CUT_OR_BRACKET_RX.finditer(text):
        mark = m.group()
        if mark in "(（[":
            depth += 1
        elif mark in ")）]":
            depth = max(0, depth - 1)
        elif depth == 0:
            items.append(text[start : m.start()])
            start = m.end()
    items.append(text[start:])
    return items


def _other_items_value(
    m: Mention, claim: str, items: list[tuple[frozenset[str], tuple[Mention, ...]]]
) -> bool:
    """The claim's words before its figure (its subject: `URL 刷新每天最多`) are best matched by a
    list item that states another value of the figure's sort, not by the item that has the figure."""
    # The label runs from the clause start, or the figure before this one, to the figure.
    cut = [found.end() for found in _LABEL_START_RX.finditer(claim, 0, m.start)]
    figures = [e for e in extract(claim).items if e.kind in _NUMERIC_KINDS]
    cut += [e.end for e in figures if e.end <= m.start]
    label = set(tokenize(claim[max(cut, default=0) : m.start]))
    # And the words after it to the clause's end, when it is the clause's last figure: `之后按 1 万元的
    # 整数倍递增` is about the increment (`整数倍递增`), whatever few words stand before the figure
    # (before another figure, as in "14 days and WAL for 35 days", they label that one).
    end = _LABEL_START_RX.search(claim, m.end)
    stop = end.start() if end else len(claim)
    if not any(m.end <= e.start < stop for e in figures):
        label |= set(tokenize(claim[m.end : stop]))
    if not label:
        return False
    figure_items = [words for words, mentions in items if any(_num_match(m, e) for e in mentions)]
    other_items = [
        words
        for words, mentions in items
        if any(_same_kind(m, e) and e.kind == m.kind and not _num_match(m, e) for e in mentions)
        and not any(_num_match(m, e) for e in mentions)
    ]
    if not figure_items or not other_items:
        return False
    with_figure = [len(label & words) for words in figure_items]
    other = [len(label & words) for words in other_items]
    # Conservative: the other item must name the subject clearly (two words) and clearly better.
    best = max(other)
    if best < 2 or other.count(best) != 1:
        return False
    if best >= max(with_figure) + 2:
        return True
    # Or better by one word that only it has, while the figure's item has none of the claim's words
    # that the other lacks: `甲醛 CADR 420` where the list says `CADR（颗粒物）420，CADR（甲醛）180`.
    chosen = other_items[other.index(best)]
    figure_words = set().union(*figure_items)
    return (
        best > max(with_figure)
        and bool((label & chosen) - figure_words)
        and not any((label & words) - chosen for words in figure_items)
    )
