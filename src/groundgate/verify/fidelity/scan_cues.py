"""Extraction passes for comparator and negation cues.

Each comparator cue is attached to the value it governs, written before it (`不超过5000元`), after it
(`5000元以上`) or as a key name (`max_retries: 3`); strong cues with no value stay mentions of their
own. Negation cues are found in Chinese and English, leaving out exception words and answer particles.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from groundgate.verify.fidelity.cues import (
    _CAMEL_SPLIT_RX,
    _CJK_GAP_CUES,
    _CMP_POSTFIX,
    _CMP_POSTFIX_DATE,
    _KEY_HINT_RX,
    _KEY_HINT_WORDS,
    _NEG_ZH_RX,
)
from groundgate.verify.fidelity.model import _DATE_KINDS, _NUMERIC_KINDS, _VALUE_KINDS, Comparator
from groundgate.verify.fidelity.patterns import (
    _ALPHA_CHARS,
    _CUE_RX,
    _CUES,
    _FILLER_RX,
    _NEG_EN_RX,
    _NEG_EXCEPTION_EN_RX,
    _NEG_EXCEPTION_ZH_RX,
    _NT_RX,
    _PARTICLE_AFTER,
    _POSTFIX_RX,
    _SENTENCE_END_CHARS,
    _STRONG_CUES,
    _SYMBOL_NEIGHBOURS,
)
from groundgate.verify.fidelity.scan import _Extractor, _Rec
from groundgate.verify.fidelity.units import _cjk


def _postfix_op(cue: str, rec: _Rec, nxt: str) -> Comparator | None:
    """The comparator of a cue written after a value (`5000元以上`, `3天内`, `3月15日前`)."""
    cue = re.sub(r"[ \t]+", " ", cue)
    if cue[-1] in _ALPHA_CHARS and nxt in _ALPHA_CHARS:
        return None
    if rec.kind in _DATE_KINDS:
        if cue == "前" and nxt in {"端", "台", "面"}:
            return None
        return _CMP_POSTFIX_DATE.get(cue) or _CMP_POSTFIX.get(cue)
    if cue == "内":
        return (
            "<=" if rec.kind == "duration" or (rec.kind == "range" and rec.qualifier == "duration") else None
        )
    return _CMP_POSTFIX.get(cue)


def comparators(ex: _Extractor) -> None:
    """Attach comparator cues to the value they govern; keep strong unattached cues as mentions."""
    lt = ex.lt
    cues: list[tuple[int, int, str]] = []
    prefix_at: dict[int, tuple[int, int, str]] = {}
    for m in _CUE_RX.finditer(lt):
        s, e = m.span()
        cue = re.sub(r"[ \t]+", " ", m.group())
        if cue[0] in _ALPHA_CHARS and not ex.left_ok(s, _ALPHA_CHARS):
            continue
        if cue[-1] in _ALPHA_CHARS and e < len(lt) and lt[e] in _ALPHA_CHARS:
            continue
        if cue in {"<", ">"} and (
            (s > 0 and lt[s - 1] in _SYMBOL_NEIGHBOURS) or lt[e : e + 1] in _SYMBOL_NEIGHBOURS
        ):
            continue
        if not ex.free(s, e):
            continue
        cues.append((s, e, cue))
        filler = _FILLER_RX.match(lt, e)
        prefix_at[filler.end() if filler is not None else e] = (s, e, cue)
        if cue in _CJK_GAP_CUES:
            for k in range(1, 4):  # `至少重试 3 次`: a short verb between cue and number
                if e + k > len(lt) or not _cjk(lt[e + k - 1]):
                    break
                after = _FILLER_RX.match(lt, e + k)
                prefix_at.setdefault(after.end() if after is not None else e + k, (s, e, cue))
    attached: set[tuple[int, int]] = set()
    postfix: list[_Rec] = []
    for rec in ex.recs:
        if rec.kind not in _VALUE_KINDS:
            continue
        date = rec.kind in _DATE_KINDS
        hit = prefix_at.get(rec.s)
        if hit is not None:
            op, date_only = _CUES[hit[2]]
            if date or not date_only:
                rec.comparator = op
                attached.add((hit[0], hit[1]))
                continue
        post = _POSTFIX_RX.match(lt, rec.e)
        if post is not None:
            cue = post.group().strip()
            pe = post.end()
            op2 = _postfix_op(cue, rec, lt[pe : pe + 1])
            if op2 is not None:
                rec.comparator = op2
                postfix.append(_Rec("comparator", op2, pe - len(cue), pe, qualifier="attached"))
                continue
        if rec.kind in _NUMERIC_KINDS:
            window = ex.nt[max(0, rec.s - 48) : rec.s]
            if window.rstrip(" \t\"'")[-1:] in {":", "="}:
                km = _KEY_HINT_RX.search(window)
                if km is not None:
                    rec.comparator = _key_hint(km.group("key"))
    for rec in postfix:
        if ex.free(rec.s, rec.e):
            ex.add(rec)
    for s, e, cue in cues:
        if (s, e) in attached:
            ex.add(_Rec("comparator", _CUES[cue][0], s, e, qualifier="attached"))
        elif cue in _STRONG_CUES and ex.free(s, e):
            ex.add(_Rec("comparator", _CUES[cue][0], s, e))


def _key_hint(key: str) -> Comparator | None:
    for word in _CAMEL_SPLIT_RX.split(key):
        op = _KEY_HINT_WORDS.get(word.lower())
        if op is not None:
            return op
    return None


def negations(ex: _Extractor, alpha: bool) -> None:
    nt, lt = ex.nt, ex.lt
    exceptions = [m.span() for m in _NEG_EXCEPTION_ZH_RX.finditer(nt)]
    if alpha:
        exceptions.extend(m.span() for m in _NEG_EXCEPTION_EN_RX.finditer(lt) if ex.word_ok(*m.span()))
    # Sorted starts and the running maximum of the ends: whether any exception overlaps a cue is a
    # binary search, not a scan of every exception for every cue (a long text has many of both).
    exceptions.sort()
    starts = [xs for xs, _ in exceptions]
    reach: list[int] = []
    for _, xe in exceptions:
        reach.append(max(xe, reach[-1]) if reach else xe)

    def excepted(s: int, e: int) -> bool:
        k = bisect_left(starts, e)  # exceptions that start before the cue ends
        return k > 0 and reach[k - 1] > s

    for m in _NEG_ZH_RX.finditer(nt):
        s, e = m.span()
        if excepted(s, e) or not ex.free(s, e):
            continue
        if m.group() in {"不", "没有"} and _answer_particle(ex, s, e):
            continue
        ex.recs.append(_Rec("negation", m.group(), s, e))
    if not alpha:
        return
    found: list[tuple[int, int, str]] = []
    for m in _NEG_EN_RX.finditer(lt):
        s, e = m.span()
        if ex.word_ok(s, e):
            found.append((s, e, re.sub(r"[ \t]+", " ", m.group())))
    if "n'" in lt or "n’" in lt:
        for m in _NT_RX.finditer(lt):
            s = m.start()
            while s > 0 and lt[s - 1] in _ALPHA_CHARS:
                s -= 1
            if s < m.start():
                found.append((s, m.end(), lt[s : m.end()].replace("’", "'")))
    found.sort()
    neither = False
    for s, e, cue in found:
        if excepted(s, e) or not ex.free(s, e):
            continue
        if cue == "no" and _answer_particle(ex, s, e):
            continue
        if cue in _NAME_WORDS and _inside_title_case_name(ex.nt, s, e):
            continue  # `Never Shout Never`, `Nothing But Thieves`: a name, not a negation
        if cue == "neither":
            neither = True
        elif cue == "nor" and neither:
            continue  # neither … nor is one negation
        ex.recs.append(_Rec("negation", cue, s, e))


#: Negation words that also occur inside names (bands, books, films).
_NAME_WORDS = frozenset({"never", "nothing", "nobody", "nowhere"})
_CAPITALISED_BEFORE_RX = re.compile(r"[A-Z][\w'’]*[ \t]+$")
_CAPITALISED_AFTER_RX = re.compile(r"[ \t]+[A-Z]")


def _inside_title_case_name(nt: str, s: int, e: int) -> bool:
    """The cue is capitalised and next to another capitalised word: part of a name."""
    if not nt[s].isupper():
        return False
    return bool(_CAPITALISED_AFTER_RX.match(nt, e)) or bool(
        _CAPITALISED_BEFORE_RX.search(nt[max(0, s - 40) : s])
    )


def _answer_particle(ex: _Extractor, s: int, e: int) -> bool:
    """`No.` / `不，` opening a reply: it answers the question and negates nothing in the sentence."""
    nt = ex.nt
    # Step over blanks in place: slicing the rest of the text per cue is quadratic in a long text.
    after = e
    while after < len(nt) and nt[after] in " \t":
        after += 1
    if after == len(nt) or nt[after] not in _PARTICLE_AFTER:
        return False
    before = s
    while before > 0 and nt[before - 1] in " \t":
        before -= 1
    return before == 0 or nt[before - 1] in _SENTENCE_END_CHARS
