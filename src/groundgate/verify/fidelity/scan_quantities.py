"""Extraction passes for quantities.

Chinese percentages (`百分之五`), halves (`两个半小时`), glued and compound durations (`2h30m`,
`1分30秒`), ranges (`3-5天`, `between 3 and 5 days`, `介于…之间`) and single numbers with their
magnitude, unit and currency, written in Arabic, Chinese or English numerals.
"""

from __future__ import annotations

import re

from groundgate.verify.fidelity.lexicon import _EN_FUNCTION_WORDS
from groundgate.verify.fidelity.numbers import _parse_cn, _parse_en_words, _parse_number, _quantity
from groundgate.verify.fidelity.patterns import (
    _ALPHA_CHARS,
    _BETWEEN_GAP_RX,
    _BETWEEN_TAIL_RX,
    _CN_BEFORE_STOP,
    _CN_DIGIT_RX,
    _CN_HALF_RX,
    _CN_NUMBER_RX,
    _CN_PERCENT_RX,
    _COMPOUND_GAP_RX,
    _CUE_END_RX,
    _CUR_BEFORE_RX,
    _CURRENCY_LAST,
    _DUR_SECONDS,
    _EN_NUM_WORDS,
    _EN_NUMBER_RX,
    _EN_WORD_BEFORE,
    _GLUED_DURATION_RX,
    _GLUED_PART_RX,
    _LIST_MARKER_AFTER_RX,
    _NUMBER_RX,
    _ORDINAL_BEFORE_RX,
    _RANGE_GAP_RX,
)
from groundgate.verify.fidelity.scan import _Extractor, _Rec, _Tok
from groundgate.verify.fidelity.units import (
    _ARTICLE_CLASSIFIERS,
    _CN_DIGIT,
    _CNUM,
    _CURRENCY_PREFIX,
    _HALF_UNITS,
    _lookup_unit,
    _resolve_unit,
)

#: `百分之` counts in percent; `千分之` and `万分之` in tenths and hundredths of one.
_PER_BASE = {"百分之": 1.0, "千分之": 0.1, "万分之": 0.01}


def quantities(ex: _Extractor, digit: bool, alpha: bool) -> None:
    nt = ex.nt
    if "百分之" in nt or "千分之" in nt or "万分之" in nt:
        for m in _CN_PERCENT_RX.finditer(nt):
            whole, _, decimals = m.group("num").partition("点")
            parsed = _parse_number(whole)
            if parsed is None or not ex.free(*m.span()):
                continue
            digits = "".join(str(_CN_DIGIT.get(c, "")) for c in decimals)
            number = parsed[0] + (float(f"0.{digits}") if digits else 0.0)
            value = number * _PER_BASE[m.group("k")]
            ex.add(
                _Rec(
                    "percent",
                    value,
                    m.start(),
                    m.end(),
                    unit="%",
                    surface="%",
                    raw=value,
                    spelled=parsed[1],
                )
            )
    if "半" in nt:
        for m in _CN_HALF_RX.finditer(nt):
            _half(ex, m)
    if "分之" in nt:
        for m in _CN_FRACTION_RX.finditer(nt):
            _cn_fraction(ex, m)
    if "刻钟" in nt:
        for m in _QUARTER_HOUR_RX.finditer(nt):
            if ex.left_ok(m.start(), _CN_BEFORE_STOP) and ex.free(*m.span()):
                minutes = 15.0 * (_parse_cn(m.group("n")) or 1.0)
                ex.add(
                    _Rec("duration", minutes * 60.0, m.start(), m.end(), unit="s", surface="min", raw=minutes)
                )
    if "块" in nt or "元" in nt:
        for m in _KUAI_MAO_RX.finditer(nt):
            _kuai_mao(ex, m)
    if alpha:
        _en_halves(ex)
    if digit:
        if alpha:
            for m in _GLUED_DURATION_RX.finditer(nt):  # 2h30m, 1m30s
                total = sum(float(n) * _DUR_SECONDS[u] for n, u in _GLUED_PART_RX.findall(m.group()))
                if ex.free(*m.span()):
                    ex.add(_Rec("duration", total, m.start(), m.end(), unit="s", surface="s", raw=total))
        tokens = [t for t in (_token(ex, m) for m in _NUMBER_RX.finditer(nt)) if t is not None]
        _assemble(ex, tokens)
    if "点" in nt and _CN_DIGIT_RX.search(nt):
        for m in _CN_DECIMAL_RX.finditer(nt):
            _cn_decimal(ex, m)
    if _CN_DIGIT_RX.search(nt):
        # Not `finditer`: the "unit" a numeral's match reaches over (up to four characters) must not
        # swallow the numeral after it (`一共一千二百人` lost `一千二百人`, `三天一次` lost `一次`);
        # the scan resumes where the unit taken ends, or at the unit when none was.
        pos = 0
        while (cm := _CN_NUMBER_RX.search(nt, pos)) is not None:
            _cn_number(ex, cm)
            pos = cm.end()
            if cm.group("unit"):
                pos = cm.start("unit")
                while pos < cm.end() and not ex.free(pos, pos + 1):
                    pos += 1
    if alpha:
        for m in _EN_NUMBER_RX.finditer(ex.lt):
            _en_number(ex, m)


_HALF_YEAR_PERIODS = frozenset("夏冬春秋上下前后")


def _char_before(ex: _Extractor, position: int) -> str:
    """The character before `position` in the scanned text ('' at its start)."""
    return ex.nt[position - 1] if position > 0 else ""


def _half(ex: _Extractor, m: re.Match[str]) -> None:
    """`半小时` 0.5 h, `两个半小时` 2.5 h, `一年半` 1.5 years."""
    number = m.group("n") or m.group("n2")
    if (
        not number
        and m.group("u") == "年"
        and _char_before(ex, m.start()) in _HALF_YEAR_PERIODS
        # `登记后半年内` is within six months after registering: 后 ends "after …", 内 a time limit
        and not (
            _char_before(ex, m.start()) in "前后" and re.match(r"\s*(?:以内|之内|内|里)", ex.nt[m.end() :])
        )
    ):
        return  # `夏半年` / `上半年` name a part of the year, not a six-month duration
    unit_text = _HALF_UNITS.get((m.group("u") or m.group("u2")).removeprefix("个"), "小时")
    base = 0.0
    spelled = True
    if number:
        parsed = _parse_number(number)
        if parsed is None:
            return
        base, spelled = parsed
    q = _quantity(base + 0.5, None, unit_text, None)
    if q is not None and ex.free(*m.span()):
        ex.add(
            _Rec(
                q.kind,
                q.value,
                m.start(),
                m.end(),
                unit=q.unit,
                surface=q.surface,
                raw=q.raw,
                spelled=spelled,
            )
        )


def _token(ex: _Extractor, m: re.Match[str]) -> _Tok | None:
    nt = ex.nt
    ns, ne = m.span("num")
    if not ex.free(ns, ne):
        return None
    end = m.end("approx") if m.group("approx") else (m.end("mult") if m.group("mult") else ne)
    s = ns
    currency = None
    cm = _CUR_BEFORE_RX.search(nt, max(0, ns - 5), ns) if ns and nt[ns - 1] in _CURRENCY_LAST else None
    if cm is None and ns > 1 and nt[ns - 1] == " " and nt[ns - 2] in _CURRENCY_LAST:
        cm = _CUR_BEFORE_RX.search(nt, max(0, ns - 5), ns)
    if cm is not None and ex.free(cm.start(), ns):
        code = cm.group().strip()
        if not (code[0] in _ALPHA_CHARS and not ex.left_ok(cm.start(), _ALPHA_CHARS)):
            currency, s = _CURRENCY_PREFIX[code], cm.start()
    unit_text = None
    mult = m.group("mult")
    raw_unit = m.group("unit")
    us = m.start("unit")
    if raw_unit and raw_unit[0] in "多余" and len(raw_unit) > 1 and not m.group("approx"):
        # `20 多名` (a space before 多) is `20多名`: the unit follows the 多 (it was a bare 20).
        raw_unit, us = raw_unit[1:], us + 1
    if raw_unit:
        resolved = _resolve_unit(raw_unit, m.group("sp") is not None, nt[m.end("unit") : m.end("unit") + 2])
        if resolved is not None and ex.free(us, us + resolved[0]):
            unit_text, end = raw_unit[: resolved[0]], us + resolved[0]
            if m.group("sp") is None and not mult and currency is None:
                magnitude = _letter_magnitude(m.group("num"), raw_unit, unit_text)
                if magnitude is not None:
                    unit_text, mult = None, magnitude
                elif unit_text == "m" and raw_unit.split()[-1].lower() in _LENGTH_AFTER:
                    unit_text = "metres"  # `1.8m tall`, `20m long`: metres, not minutes
                elif _decade(ex, ns, m.group("num"), unit_text):
                    return None  # `in her 30s`: an age or a decade, not 30 seconds
    return _Tok(s, ns, end, float(m.group("num").replace(",", "")), mult, unit_text, currency, raw_unit)


def _assemble(ex: _Extractor, tokens: list[_Tok]) -> None:
    """Compound durations (`2 hours 7 minutes`), ranges (`3-5天`, `between 3 and 5 days`), then singles."""
    i = 0
    while i < len(tokens):
        j = _compound(ex, tokens, i)
        if j > i + 1:
            i = j
            continue
        if i + 1 < len(tokens) and _range(ex, tokens[i], tokens[i + 1]):
            i += 2
            continue
        _single(ex, tokens[i])
        i += 1


def _part_seconds(ex: _Extractor, tok: _Tok) -> tuple[float, int] | None:
    """(seconds per unit, end) of a token that can be part of a compound duration."""
    unit = _lookup_unit(tok.unit_text)
    if unit is not None and unit.kind == "duration" and unit.base == "s":
        return unit.factor, tok.e
    if tok.unit_text is None and tok.raw_unit and tok.raw_unit.startswith("分") and not tok.mult:
        # `1分30秒`, `4 分 30 秒`: 分 is minutes here
        fen = ex.nt.find("分", tok.ns)
        return 60.0, (fen + 1 if fen >= 0 else tok.e)
    return None


def _compound(ex: _Extractor, tokens: list[_Tok], i: int) -> int:
    parts: list[tuple[_Tok, float, int]] = []
    j = i
    previous = float("inf")
    while j < len(tokens):
        info = _part_seconds(ex, tokens[j])
        if info is None or info[0] >= previous:
            break
        if parts:
            gap = ex.nt[parts[-1][2] : tokens[j].s]
            if not _COMPOUND_GAP_RX.fullmatch(gap):
                break
        parts.append((tokens[j], info[0], info[1]))
        previous = info[0]
        j += 1
    if len(parts) < 2 or not any(t.unit_text for t, _, _ in parts):
        return i
    s, e = parts[0][0].s, parts[-1][2]
    if not ex.free(s, e):
        return i
    total = sum(t.num * factor for t, factor, _ in parts)
    ex.add(_Rec("duration", total, s, e, unit="s", surface="s", raw=total))
    return j


#: A change said before its size: `rose by`, `dropped`, `up by` — `… £10 to £35` after it is the change
#: and the value reached, not a range (docs/design.md §2.1, "Session 33").
_CHANGE_BY_RX = re.compile(
    r"\b(?:by|rose|rises|fell|falls|dropped|drops|climbed|grew|grows|jumped|slipped|increased|decreased|"
    r"declined|gained|lost|shrank|surged|plunged|slid|(?:goes|went|going|edged|is|was)\s+(?:up|down))"
    r"\s+(?:about\s+|roughly\s+|some\s+|almost\s+|nearly\s+)?$"
)


def _percent(t: _Tok) -> bool:
    return t.unit_text is not None and t.unit_text.strip() in ("%", "percent", "per cent", "％")


def _range(ex: _Extractor, a: _Tok, b: _Tok) -> bool:
    nt, lt = ex.nt, ex.lt
    gap = nt[a.e : b.s]
    start, end = a.s, b.e
    g = _RANGE_GAP_RX.fullmatch(lt, a.e, b.s)
    if g is None:
        before = lt[max(0, a.s - 9) : a.s].rstrip()
        if _BETWEEN_GAP_RX.fullmatch(lt, a.e, b.s) and before.endswith("between"):
            start = a.s - (len(lt[max(0, a.s - 9) : a.s]) - len(before)) - len("between")
        elif gap.strip() in {"和", "与", "到", "至"} and nt[max(0, a.s - 3) : a.s].strip().endswith("介于"):
            start = nt.rfind("介于", 0, a.s)
            tail = _BETWEEN_TAIL_RX.match(nt, b.e)
            if tail is None:
                return False
            end = tail.end()
        else:
            return False
        sep = "and"
    else:
        sep = g.group("sep")
        if sep == "—" and gap.startswith((" ", "\t")) and gap.endswith((" ", "\t")):
            return False  # `add £4 — £37 a night`: a spaced em dash sets off a clause, not a range
        if sep == "to" and not ex.word_ok(a.e + gap.index("to"), a.e + gap.index("to") + 2):
            return False
        if sep == "to" and _CHANGE_BY_RX.search(lt, max(0, a.s - 24), a.s):
            return False  # `up by £10 to £35`, `dropped 11% to $610 million`: a change and where it lands
    ua, ub = _lookup_unit(a.unit_text), _lookup_unit(b.unit_text)
    if ua is not None and ub is not None and ua.kind != ub.kind:
        return False
    if _percent(a) != _percent(b) and (a.currency or b.currency or (a.unit_text and b.unit_text)):
        return False  # `lifted expenses 9% to $640 million`: a change in percent and the amount reached
    unit_text = b.unit_text or a.unit_text
    decimal = "." in nt[a.ns : a.e] or "." in nt[b.ns : b.e]
    if sep in "-–—" and not unit_text and not (a.currency or b.currency) and decimal:
        return False
    currency = a.currency or b.currency
    mult_a = a.mult or (b.mult if not a.unit_text else None)
    qa = _quantity(a.num, mult_a, a.unit_text or unit_text, currency)
    qb = _quantity(b.num, b.mult, unit_text, currency)
    if qa is None or qb is None or qa.kind != qb.kind or qa.unit != qb.unit or qa.value >= qb.value:
        return False
    if not ex.free(start, end):
        return False
    ex.add(
        _Rec("range", (qa.value, qb.value), start, end, unit=qa.unit, surface=qb.surface, qualifier=qa.kind)
    )
    return True


def _single(ex: _Extractor, t: _Tok) -> None:
    nt = ex.nt
    if not ex.free(t.s, t.e):
        return
    before = nt[max(0, t.ns - 12) : t.ns]
    if before.rstrip().endswith("第"):
        return  # 第3次: an ordinal
    if t.unit_text is None and t.mult is None and t.currency is None:
        if _ORDINAL_BEFORE_RX.search(before):
            return
        line_start = nt.rfind("\n", 0, t.ns) + 1
        if not nt[line_start : t.ns].strip(" \t(") and _LIST_MARKER_AFTER_RX.match(nt, t.e):
            return  # `1. Restart the service`: a list number
    q = _quantity(t.num, t.mult, t.unit_text, t.currency)
    if q is not None:
        ex.add(_Rec(q.kind, q.value, t.s, t.e, unit=q.unit, surface=q.surface, raw=q.raw))


#: `二十四点六公里` (24.6 km): a Chinese decimal — digits only after 点, and a unit that is not a
#: clock's (`九点四十七分`, `三点半`, `十点整` are times).
_CN_DECIMAL_RX = re.compile(
    r"(?P<i>[零〇一二两三四五六七八九十百千万]+)点(?P<f>[零〇一二三四五六七八九]+)(?P<mag>万|亿)?"
    r"(?P<unit>(?![分刻半钟整多时])[\u4e00-\u9fff]{1,4})"
)


def _cn_decimal(ex: _Extractor, m: re.Match[str]) -> None:
    whole = _parse_cn(m.group("i"))
    if whole is None or not ex.left_ok(m.start(), _CN_BEFORE_STOP):
        return
    resolved = _resolve_unit(m.group("unit"), False, ex.nt[m.end() : m.end() + 2])
    if resolved is None:
        return
    e = m.start("unit") + resolved[0]
    value = float(f"{int(whole)}.{''.join(str(_CN_DIGIT[ch]) for ch in m.group('f'))}")
    value *= {"万": 1e4, "亿": 1e8}.get(m.group("mag") or "", 1.0)
    q = _quantity(value, None, m.group("unit")[: resolved[0]], None)
    if q is not None and ex.free(m.start(), e):
        ex.add(_Rec(q.kind, q.value, m.start(), e, unit=q.unit, surface=q.surface, raw=q.raw, spelled=True))


def _cn_number(ex: _Extractor, m: re.Match[str]) -> None:
    nt = ex.nt
    s = m.start()
    if not ex.left_ok(s, _CN_BEFORE_STOP):
        return
    raw_unit = m.group("unit")
    if not raw_unit:
        return
    number_end = m.start("unit")
    # `二十多人`, `十余年`: more than the numeral (a lower bound), as `20多人` is with digits; the
    # unit follows the `多`. Without this the numeral was no mention at all.
    more = raw_unit[0] in "多余" and len(raw_unit) > 1 and not m.group("b")
    if more:
        raw_unit = raw_unit[1:]
    resolved = _resolve_unit(raw_unit, False, nt[m.end() : m.end() + 2])
    if resolved is None:
        return
    unit_text = raw_unit[: resolved[0]]
    e = number_end + more + resolved[0]
    half = False
    if unit_text == "成" and nt[e : e + 1] in ("多", "余"):
        more, e = True, e + 1  # `三成多`: more than 30 % (`35%` bears it out)
    elif unit_text == "成" and nt[e : e + 1] == "半":
        half, e = True, e + 1  # `三成半`: 35 %
    tenth = 0
    if unit_text == "成" and nt[e : e + 1] in _CN_DIGIT and nt[e : e + 2] not in ("一样", "一致"):
        tenth, e = _CN_DIGIT[nt[e]], e + 1  # `八成五`: 85 %
    currency = None
    if nt[max(0, s - 3) : s] == "人民币":
        s, currency = s - 3, "CNY"
    if not ex.free(s, e):
        return
    if m.group("b"):
        a_text = nt[m.start() : m.start("sep")]
        pa, pb = _parse_cn(a_text), _parse_cn(m.group("b"))
        qa = _quantity(pa, None, unit_text, currency) if pa is not None else None
        qb = _quantity(pb, None, unit_text, currency) if pb is not None else None
        if qa is not None and qb is not None and qa.value < qb.value:
            ex.add(
                _Rec(
                    "range",
                    (qa.value, qb.value),
                    s,
                    e,
                    unit=qa.unit,
                    surface=qa.surface,
                    qualifier=qa.kind,
                    spelled=True,
                )
            )
        return
    number = nt[m.start() : number_end]
    nxt = nt[e : e + 1]
    if number == "一" and (unit_text in _ARTICLE_CLASSIFIERS or nxt == "性"):
        return  # 一个问题, 一次性: articles, not quantities
    if number == "一" and nt[max(0, m.start() - 1) : m.start()] in ("上", "下", "后"):
        return  # 上一届, 下一次, 最后一届: which one, not how many (docs/design.md §2.1, "Session 33")
    value = _parse_cn(number)
    if value is None:
        return
    if unit_text == "折" and len(number) == 2 and all(ch in _CN_DIGIT for ch in number):
        value /= 10  # `八五折` is 8.5 折, not 85
    if half:
        value += 0.5
    value += tenth / 10
    q = _quantity(value, None, unit_text, currency)
    if q is not None:
        rec = _Rec(q.kind, q.value, s, e, unit=q.unit, surface=q.surface, raw=q.raw, spelled=True)
        # `二十多人` is more than twenty: a bound a figure such as `23人` bears out, not a mismatch.
        rec.comparator = ">" if more else None
        ex.add(rec)


def _en_number(ex: _Extractor, m: re.Match[str]) -> None:
    lt = ex.lt
    s = m.start()
    if not ex.left_ok(s, _EN_WORD_BEFORE):
        return
    nxt = m.group("next")
    num_end = m.end() if nxt is None else len(lt[s : m.start("next")].rstrip()) + s
    value = _parse_en_words(lt[s:num_end])
    if value is None:
        return
    if nxt is not None:
        resolved = _resolve_unit(nxt, True, lt[m.end() : m.end() + 2])
        if resolved is not None:
            e = m.start("next") + resolved[0]
            q = _quantity(value, None, nxt[: resolved[0]], None)
            if q is not None and ex.free(s, e):
                ex.add(_Rec(q.kind, q.value, s, e, unit=q.unit, surface=q.surface, raw=q.raw, spelled=True))
            return
    if not ex.free(s, num_end):
        return
    first = lt[s:num_end].split()[0]
    attached = _CUE_END_RX.search(lt, max(0, s - 24), s) is not None
    content_next = nxt is not None and nxt.split()[0] not in _EN_FUNCTION_WORDS
    if not attached and (first in {"one", "zero"} or not content_next):
        return
    ex.add(_Rec("count", value, s, num_end, raw=value, spelled=True))


# --------------------------------------------------------------------------- surface forms

#: Words after a glued `M` / `B` that make it a data size (`512M memory`), not a magnitude.
_SIZE_NOUNS = frozenset(
    [
        "of",
        "memory",
        "ram",
        "heap",
        "disk",
        "disks",
        "storage",
        "file",
        "files",
        "space",
        "cache",
        "buffer",
        "buffers",
        "bandwidth",
        "limit",
        "quota",
        "ssd",
        "hdd",
        "partition",
        "volume",
        "image",
        "images",
        "max",
        "maximum",
        "per",
        "chunk",
        "chunks",
        "block",
        "blocks",
        "page",
        "pages",
    ]
)
#: Words after a glued `m` that make it metres.
_LENGTH_AFTER = frozenset({"tall", "high", "long", "wide", "deep", "away"})
#: Words after a glued `m` that keep it a length or a duration (`5.5m tall`, `1.5m timeout`).
_M_KEEP_NOUNS = frozenset(
    [
        "tall",
        "high",
        "long",
        "wide",
        "deep",
        "away",
        "timeout",
        "ttl",
        "delay",
        "window",
        "interval",
        "run",
        "walk",
        "race",
        "cable",
        "rope",
        "above",
        "below",
        "from",
        "of",
        "per",
    ]
)


def _letter_magnitude(number: str, raw_unit: str, unit_text: str) -> str | None:
    """`5M users`, `7B parameters`, `2.3m residents`: a magnitude (million, billion) before a noun.

    A glued `M` was read as megabytes, `B` as bytes and `m` as minutes, so `1.5M users` was a data
    size and `2.3m residents` 138 seconds. Before a noun that is no size (or, for `m`, no length or
    time) word they are the news shorthand for millions and billions. `m` only with a decimal
    (`2.3m`): a whole `30m` is too often minutes or metres.
    """
    words = raw_unit.split()
    if len(words) != 2 or words[0] != unit_text or not words[1].isalpha():
        return None
    noun = words[1].lower()
    if unit_text in ("M", "B") and noun not in _SIZE_NOUNS:
        return "million" if unit_text == "M" else "billion"
    if unit_text == "m" and "." in number and noun not in _M_KEEP_NOUNS and noun not in _SIZE_NOUNS:
        return "million"
    return None


_DECADE_BEFORE_RX = re.compile(r"(?:the|his|her|their|my|your|our|its|early|mid|late)[ \t\-]*$")


def _decade(ex: _Extractor, ns: int, number: str, unit_text: str) -> bool:
    """`in her 30s`, `the 80s`: an age or a decade, not a duration in seconds (it was 30 s).

    Two digits ending in 0 after `the` / `her` / `early` …; `the 1990s` is a date (`scan_dates`).
    """
    if unit_text != "s" or len(number) != 2 or not number.endswith("0"):
        return False
    return _DECADE_BEFORE_RX.search(ex.lt, max(0, ns - 8), ns) is not None


#: `四分之一` one quarter, `三分之二` two thirds: a fraction, as a percentage.
_CN_FRACTION_RX = re.compile(rf"(?P<d>\d+|{_CNUM})[ \t]*分之[ \t]*(?P<n>\d+(?:\.\d+)?|{_CNUM})")


def _cn_fraction(ex: _Extractor, m: re.Match[str]) -> None:
    """`四分之一` is 25 % (it was no mention, so `占比四分之一` could not bear out `占比 25%`)."""
    d, n = _parse_number(m.group("d")), _parse_number(m.group("n"))
    if d is None or n is None or not d[0] or n[0] > d[0] or not ex.left_ok(m.start(), _CN_BEFORE_STOP):
        return
    if not ex.free(*m.span()):
        return
    value = 100.0 * n[0] / d[0]
    ex.add(_Rec("percent", value, m.start(), m.end(), unit="%", surface="%", raw=value, spelled=n[1]))


#: `一刻钟` a quarter of an hour (15 minutes); `三刻钟` 45 minutes.
_QUARTER_HOUR_RX = re.compile(r"(?P<n>[一两三])刻钟")

#: `3块5`, `三块五毛`, `3元5角`: yuan and tenths (jiao / mao) written as one price.
_KUAI_MAO_RX = re.compile(
    rf"(?P<a>\d+|{_CNUM})[ \t]*(?P<k>块|元)[ \t]*(?P<b>[1-9一二两三四五六七八九])[ \t]*(?P<mao>[毛角])?钱?"
)
_KUAI_MAO_STOP = frozenset("0123456789.零〇一二两三四五六七八九十百千万亿")


def _kuai_mao(ex: _Extractor, m: re.Match[str]) -> None:
    """`3 块 5` is 3.5 元; it was `3 块` and a stray number 5, so `3.5 元` was a mismatch."""
    nt = ex.nt
    e = m.end()
    nxt = nt[e : e + 1]
    if nxt in _KUAI_MAO_STOP and nxt:
        return
    # Without 毛 / 角 the digit must end the price: `3块5个` is 3 元 and 5 items.
    if not m.group("mao") and (
        m.group("k") == "元" or (nxt and "\u4e00" <= nxt <= "\u9fff" and nxt not in "的钱")
    ):
        return
    a, b = _parse_number(m.group("a")), _parse_number(m.group("b"))
    if a is None or b is None or not ex.left_ok(m.start(), _CN_BEFORE_STOP) or not ex.free(m.start(), e):
        return
    value = a[0] + b[0] / 10
    ex.add(_Rec("amount", value, m.start(), e, unit="CNY", surface="元", raw=value, spelled=a[1]))


_EN_HALF_UNIT = r"(?P<u>hour|day|week|month|year|minute|second|dozen|million|billion|thousand)"
#: `half an hour`, `half a day`, `half a million`.
_HALF_A_RX = re.compile(rf"half[ \t]+(?:an?[ \t]+)?{_EN_HALF_UNIT}(?![a-z])")
#: `two and a half hours`, `1 and a half years`, `one and a half million`.
_AND_A_HALF_RX = re.compile(
    rf"(?P<n>\d+|an?|{_EN_NUM_WORDS})[ \t]+and[ \t]+a[ \t]+half[ \t]+{_EN_HALF_UNIT}s?(?![a-z])"
)
#: `an hour and a half`, `a year and a half`, `two hours and a half`.
_UNIT_AND_A_HALF_RX = re.compile(
    rf"(?P<n>\d+|an?|{_EN_NUM_WORDS})[ \t]+{_EN_HALF_UNIT}s?[ \t]+and[ \t]+a[ \t]+half(?![a-z])"
)

#: `a fortnight` (14 days), `two fortnights`.
_FORTNIGHT_RX = re.compile(r"(?P<n>a|one|two|\d+)[ \t]+fortnights?(?![a-z])")
#: `less than a minute`, `within an hour`, `over a week`: one unit, said after a bound (alone,
#: `a day` is as often "per day").
_BOUND_ONE_UNIT_RX = re.compile(
    r"(?<![a-z])(?:less[ \t]+than|under|within|more[ \t]+than|over|about|around|nearly|almost|"
    r"up[ \t]+to|at[ \t]+least|at[ \t]+most)[ \t]+(?P<a>an?)[ \t]+(?P<u>minute|hour|day|week|month|year)(?![a-z])"
    # "15% more than a year earlier": a point in time compared with, not a length
    r"(?![ \t]+(?:earlier|ago|before|later|after|back|prior|previously|from|since|on)\b)"
)

#: `twice a week`, `thrice`: counts of times, as `two times` is.
_TIMES_WORD_RX = re.compile(r"(?P<w>twice|thrice)(?![a-z])")


def _en_halves(ex: _Extractor) -> None:
    """Halves written in words: `half an hour` 30 min, `an hour and a half` 90 min, `half a million`.

    They were no mention (or `half a million` was a million), so `30 minutes` read against `half an
    hour` was a figure missing from the evidence, and `an hour` for `30 minutes` passed unseen.
    """
    lt = ex.lt
    if "half" in lt:
        for rx in (_AND_A_HALF_RX, _UNIT_AND_A_HALF_RX, _HALF_A_RX):
            for m in rx.finditer(lt):
                if not ex.word_ok(m.start(), m.end()):
                    continue
                n_text = m.groupdict().get("n")
                if n_text is None:
                    n = 0.0
                elif n_text.isdigit():
                    n = float(n_text)
                else:
                    n = 1.0 if n_text in ("a", "an") else _parse_en_words(n_text) or 0.0
                    if not n:
                        continue
                _add_words_quantity(ex, m.start(), m.end(), n + 0.5, m.group("u"))
    if "fortnight" in lt:
        for m in _FORTNIGHT_RX.finditer(lt):
            n_text = m.group("n")
            n = float(n_text) if n_text.isdigit() else 2.0 if n_text == "two" else 1.0
            if ex.word_ok(m.start(), m.end()):
                _add_words_quantity(ex, m.start(), m.end(), 14.0 * n, "day")
    for m in _BOUND_ONE_UNIT_RX.finditer(lt):
        if re.search(r"[\d%][ \t]*$", lt[: m.start()]):
            continue  # "15% more than a year …": the bound is the figure's
        # the bound word itself is read as the comparator (an article between them is filler)
        if ex.word_ok(m.start("u"), m.end()):
            _add_words_quantity(ex, m.start("u"), m.end(), 1.0, m.group("u"))
    if "twice" in lt or "thrice" in lt:
        for m in _TIMES_WORD_RX.finditer(lt):
            if ex.word_ok(m.start(), m.end()) and ex.free(*m.span()):
                n = 2.0 if m.group("w") == "twice" else 3.0
                ex.add(
                    _Rec("count", n, m.start(), m.end(), unit="times", surface="times", raw=n, spelled=True)
                )


def _add_words_quantity(ex: _Extractor, s: int, e: int, number: float, unit: str) -> None:
    if not ex.free(s, e):
        return
    if unit in _EN_SCALES_MULT:
        value = number * _EN_SCALES_MULT[unit]
        ex.add(_Rec("count", value, s, e, raw=value, spelled=True))
        return
    q = _quantity(number, None, unit, None)
    if q is not None:
        ex.add(_Rec(q.kind, q.value, s, e, unit=q.unit, surface=q.surface, raw=q.raw, spelled=True))


_EN_SCALES_MULT = {"dozen": 12.0, "thousand": 1e3, "million": 1e6, "billion": 1e9}
