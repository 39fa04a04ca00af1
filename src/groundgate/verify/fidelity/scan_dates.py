"""Extraction passes for dates, periods and times of day.

Relative periods (`上个月`, `last week`, `近7天`), quarters and halves, numeric, Chinese and English
dates, weekdays and clock times, each normalised to the strings the package doc describes.
"""

from __future__ import annotations

import re

from groundgate.verify.fidelity.lexicon import (
    _LAST_UNIT,
    _MONTHS,
    _PM_PREFIXES,
    _QUARTER_WORDS,
    _REL_DAY_EN,
    _REL_EN,
    _REL_WEEK_ZH,
    _REL_ZH,
    _WEEKDAY_ABBR,
    _WEEKDAY_EN,
    _WEEKDAY_ZH,
)
from groundgate.verify.fidelity.numbers import _parse_cn, _parse_en_words, _parse_number
from groundgate.verify.fidelity.patterns import (
    _ALPHA_CHARS,
    _AMPM_RX,
    _CLOCK_BEFORE_NT,
    _CLOCK_RX,
    _CN_DIGIT_RX,
    _CN_MONTH_BEFORE,
    _CN_WEEK_BEFORE,
    _DATE_GLUE,
    _DAYPART_BEFORE_RX,
    _DIGITS_DOT,
    _EN_DATE_RX,
    _EN_DAY_MONTH_RX,
    _EN_YEAR_RX,
    _HALF_BEFORE_RX,
    _ISO_DATE_RX,
    _LAST_N_EN_RX,
    _LAST_N_ZH_RX,
    _MON_GATE_RX,
    _MONTH_NAME_RX,
    _Q_RX,
    _QUARTER_BEFORE_RX,
    _QUARTER_WORD_RX,
    _REL_EN_RX,
    _REL_WEEK_ZH_RX,
    _REL_ZH_RX,
    _US_DATE_RX,
    _WEEKDAY_ABBR_RX,
    _WEEKDAY_EN_RX,
    _WEEKDAY_ZH_RX,
    _WORD_CHARS,
    _YEAR_AFTER_RX,
    _YEAR_BEFORE_RX,
    _YEAR_GLUED_BEFORE_RX,
    _YEAR_MONTH_RX,
    _YI,
    _ZH_CLOCK_RX,
    _ZH_MONTH_CN_RX,
    _ZH_MONTH_RX,
    _ZH_YEAR_RX,
)
from groundgate.verify.fidelity.scan import _Extractor, _Rec


def dates(ex: _Extractor, digit: bool, alpha: bool) -> None:
    nt, lt = ex.nt, ex.lt
    for m in _REL_ZH_RX.finditer(nt):
        if ex.left_ok(m.start(), _YI) and ex.free(*m.span()):
            unit, offset = _REL_ZH[m.group()]
            ex.add(_Rec("period", f"relative:{unit}:{offset:+d}", m.start(), m.end()))
    if "周" in nt or "星期" in nt or "礼拜" in nt:
        for m in _REL_WEEK_ZH_RX.finditer(nt):
            word = m.group()
            if not ex.left_ok(m.start(), _YI) or not ex.free(*m.span()):
                continue
            offset = _REL_WEEK_ZH[word[0]]
            value = f"relative:week:{offset:+d}"
            last = word[-1]
            if last in _WEEKDAY_ZH or last.isdigit():
                value += f":weekday:{_WEEKDAY_ZH.get(last) or int(last)}"
            ex.add(_Rec("period", value, m.start(), m.end()))
    for m in _LAST_N_ZH_RX.finditer(nt):
        parsed = _parse_number(m.group("n"))
        if parsed is not None and ex.free(*m.span()):
            ex.add(_Rec("period", _last_n(parsed[0], _LAST_UNIT[m.group("u")]), m.start(), m.end()))
    if alpha:
        for m in _LAST_N_EN_RX.finditer(lt):
            n_text = m.group("n")
            n = float(n_text) if n_text.isdigit() else _parse_en_words(n_text)
            if n is not None and ex.word_ok(m.start(), m.end()) and ex.free(*m.span()):
                ex.add(_Rec("period", _last_n(n, m.group("u").rstrip("s")), m.start(), m.end()))
        for m in _REL_EN_RX.finditer(lt):
            if not ex.word_ok(m.start(), m.end()) or not ex.left_ok(m.start(), _WORD_CHARS):
                continue
            words = re.split(r"[ \t_\-]+", m.group())
            if len(words) == 1:
                value = f"relative:day:{_REL_DAY_EN[words[0]]:+d}"
            else:
                value = f"relative:{words[-1]}:{_REL_EN[words[0]]:+d}"
            if ex.free(*m.span()):
                ex.add(_Rec("period", value, m.start(), m.end()))
    _quarters(ex, alpha)
    if digit:
        if alpha:
            # `the 1990s`: a decade (it was a duration of 1990 seconds); `1990s` in `matching`.
            for m in _DECADE_RX.finditer(lt):
                if ex.left_ok(m.start(), _DATE_GLUE) and ex.free(*m.span()):
                    ex.add(_Rec("date", f"{m.group('y')}s", m.start(), m.end()))
        _numeric_dates(ex, alpha)
    if "月" in nt and _CN_DIGIT_RX.search(nt):
        for m in _ZH_MONTH_CN_RX.finditer(nt):
            if not ex.left_ok(m.start(), _CN_MONTH_BEFORE):
                continue
            head = m.group().split("月")[0]
            month = _parse_cn(head)
            day = _parse_cn(m.group("d")) if m.group("d") else None
            if month is not None:
                s = _year_before(ex, m.start())
                year = nt[s : s + 4] if s < m.start() else None
                _ymd(ex, s, m.end(), year, str(int(month)), str(int(day)) if day is not None else None)
    if "星期" in nt or "礼拜" in nt or "周" in nt:
        for m in _WEEKDAY_ZH_RX.finditer(nt):
            if ex.left_ok(m.start(), _CN_WEEK_BEFORE) and ex.free(*m.span()):
                ex.add(_Rec("date", f"weekday:{_WEEKDAY_ZH[m.group()[-1]]}", m.start(), m.end()))
    if alpha:
        if "day" in lt:
            for m in _WEEKDAY_EN_RX.finditer(lt):
                if ex.left_ok(m.start(), _ALPHA_CHARS) and ex.free(*m.span()):
                    day = _WEEKDAY_EN[m.group().rstrip("s")]
                    ex.add(_Rec("date", f"weekday:{day}", m.start(), m.end()))
        for m in _WEEKDAY_ABBR_RX.finditer(nt):
            if ex.left_ok(m.start(), _ALPHA_CHARS) and ex.free(*m.span()):
                day = _WEEKDAY_ABBR[m.group().rstrip(".")]
                ex.add(_Rec("date", f"weekday:{day}", m.start(), m.end()))
    _times(ex, digit)


def _year_before(ex: _Extractor, s: int) -> int:
    """Start of a `2026年` glued before position `s`, or `s`."""
    ym = _YEAR_BEFORE_RX.search(ex.nt, max(0, s - 8), s)
    if ym is not None and ex.left_ok(ym.start(), _DIGITS_DOT) and ex.free(ym.start(), s):
        return ym.start()
    return s


def _quarters(ex: _Extractor, alpha: bool) -> None:
    nt, lt = ex.nt, ex.lt
    if "季度" in nt:
        for m in re.finditer("季度", nt):
            qm = _QUARTER_BEFORE_RX.search(nt, max(0, m.start() - 12), m.start())
            if qm is None or not ex.left_ok(qm.start(), _DIGITS_DOT):
                continue
            q = int(qm.group("q")) if qm.group("q").isdigit() else int(_parse_cn(qm.group("q")) or 0)
            _period_value(ex, qm.start(), m.end(), qm.group("y"), f"Q{q}")
    if "半年" in nt:
        for m in re.finditer("半年", nt):
            hm = _HALF_BEFORE_RX.search(nt, max(0, m.start() - 8), m.start())
            if hm is not None:
                _period_value(ex, hm.start(), m.end(), hm.group("y"), "H1" if hm.group("h") == "上" else "H2")
    if not alpha:
        return
    for m in _Q_RX.finditer(nt):
        s, e = m.span()
        if e < len(nt) and nt[e] in _WORD_CHARS:
            continue
        year = None
        if s > 0 and nt[s - 1] in _WORD_CHARS and not nt[s - 1].isdigit():
            continue
        yb = _YEAR_GLUED_BEFORE_RX.search(nt, max(0, s - 7), s)
        if yb is not None and ex.left_ok(yb.start(), _DIGITS_DOT):
            year, s = yb.group("y"), yb.start()
        elif s > 0 and nt[s - 1].isdigit():
            continue
        ya = _YEAR_AFTER_RX.match(lt, e)
        if year is None and ya is not None:
            year, e = ya.group("y"), ya.end()
        kind = "H" if m.group()[0] == "H" else "Q"
        _period_value(ex, s, e, year, f"{kind}{m.group()[1]}")
    if "quarter" in lt:
        for m in _QUARTER_WORD_RX.finditer(lt):
            if not ex.left_ok(m.start(), _ALPHA_CHARS):
                continue
            e = m.end()
            ya = _YEAR_AFTER_RX.match(lt, e)
            year = ya.group("y") if ya is not None else None
            if ya is not None:
                e = ya.end()
            _period_value(ex, m.start(), e, year, f"Q{_QUARTER_WORDS[m.group().split()[0]]}")


def _period_value(ex: _Extractor, s: int, e: int, year: str | None, value: str) -> None:
    if ex.free(s, e):
        ex.add(_Rec("date", f"{year}-{value}" if year else value, s, e))


def _numeric_dates(ex: _Extractor, alpha: bool) -> None:
    nt, lt = ex.nt, ex.lt
    if "-" in nt or "/" in nt or "." in nt:
        for m in _ISO_DATE_RX.finditer(nt):
            if ex.left_ok(m.start(), _DIGITS_DOT):
                _ymd(ex, m.start(), m.end(), nt[m.start() : m.start() + 4], m.group("m"), m.group("d"))
        if "/" in nt:
            for m in _US_DATE_RX.finditer(nt):
                a, b, y = m.group().split("/")
                month, day = (b, a) if int(a) > 12 else (a, b)
                _ymd(ex, m.start(), m.end(), y, month, day)
        for m in _YEAR_MONTH_RX.finditer(nt):
            if ex.left_ok(m.start(), _DATE_GLUE):
                _ymd(ex, m.start(), m.end(), nt[m.start() : m.start() + 4], m.group("m"), None)
        if "-" in nt:
            # `07-09 DNS 解析异常` in a record: a month-day with a zero-padded month (a range of
            # plain numbers is not written `07-09`).
            for m in _PADDED_MONTH_DAY_RX.finditer(nt):
                if ex.left_ok(m.start(), _DATE_GLUE):
                    _ymd(ex, m.start(), m.end(), None, m.group("m"), m.group("d"))
    if "月" in nt:
        for m in _ZH_MONTH_SPAN_RX.finditer(nt):
            # `2026 年 4–10 月`: both ends are months (the year before the first is the second's too)
            s = _year_before(ex, m.start())
            year = nt[s : s + 4] if s < m.start() else None
            if int(m.group("a")) < int(m.group("b")):
                _ymd(ex, s, m.end("a"), year, m.group("a"), None)
                _ymd(ex, m.start("b"), m.end(), year, m.group("b"), None)
        for m in _ZH_MONTH_RX.finditer(nt):
            s = _year_before(ex, m.start())
            year = nt[s : s + 4] if s < m.start() else None
            month = m.group().split("月")[0].strip()
            _ymd(ex, s, m.end(), year, month, m.group("d"))
            end = _ZH_DAY_RANGE_END_RX.match(nt, m.end()) if m.group("d") else None
            if end is not None and int(m.group("d")) < int(end.group("d")):
                # `5月2日到4日`, `3 月 9 日至 12 日`: the day after the dash is a date of the same month.
                _ymd(ex, end.start("d"), end.end(), year, month, end.group("d"))
    if "日" in nt:
        _zh_days_of_month(ex)
    if "年" in nt:
        for m in _ZH_YEAR_RX.finditer(nt):
            if ex.left_ok(m.start(), _DIGITS_DOT):
                _ymd(ex, m.start(), m.end(), nt[m.start() : m.start() + 4], None, None)
    if alpha:
        if _MON_GATE_RX.search(nt):
            for m in _EN_DAY_MONTH_RX.finditer(nt):
                day_digits = re.match(r"\d+", m.group())
                if day_digits is not None:
                    mon = m.group("mon")
                    _ymd(ex, m.start(), m.end(), m.group("y"), str(_MONTHS[mon.lower()]), day_digits.group())
            for m in _EN_DATE_RX.finditer(nt):
                if not ex.left_ok(m.start(), _ALPHA_CHARS):
                    continue
                name = _MONTH_NAME_RX.match(m.group())
                mon = name.group() if name is not None else ""
                if not (m.group("d") or m.group("y")) and (
                    not _bare_month(nt, m, mon) or _NAME_AFTER_RX.match(nt, m.end()) is not None
                ):
                    continue  # a bare `Mar` or `May` is too ambiguous, `June Carter` a name
                _ymd(ex, m.start(), m.end(), m.group("y"), str(_MONTHS[mon.lower()]), m.group("d"))
                if m.group("d") and not m.group("y"):
                    _day_range_end(ex, m.end(), str(_MONTHS[mon.lower()]), int(m.group("d")))
            for m in _EN_DAY_MONTH_RX.finditer(nt):
                # `18-19 April`: the day before the dash is a date of the same month.
                last = re.match(r"\d+", m.group())
                first = _DAY_BEFORE_RANGE_RX.search(nt, max(0, m.start() - 12), m.start())
                if last is not None and first is not None and int(first.group("d")) < int(last.group()):
                    month = str(_MONTHS[m.group("mon").lower()])
                    _ymd(ex, first.start("d"), first.end("d"), m.group("y"), month, first.group("d"))
        for m in _EN_YEAR_RX.finditer(lt):
            if ex.left_ok(m.start(), _ALPHA_CHARS):
                _ymd(ex, m.start("y"), m.end("y"), m.group("y"), None, None)


_NAME_AFTER_RX = re.compile(r"[ \t]+[A-Z][a-z]")
#: `in May`, `by May`, `end of May`: after these `May` is the month, not the verb.
_MONTH_PREPOSITION_RX = re.compile(
    r"\b(?:in|by|since|until|till|from|before|after|of|early|late|mid|during|through)[ \t]+$", re.IGNORECASE
)
_ZH_MONTH_SPAN_RX = re.compile(
    r"(?<![\d.])(?P<a>\d\d?)[ \t]*(?:到|至|~|～|-|–|—)[ \t]*(?P<b>\d\d?)[ \t]*月(?![ \t]*\d|份[ \t]*\d)"
)
_ZH_DAY_RANGE_END_RX = re.compile(r"[ \t]*(?:到|至|~|～|-|–|—)[ \t]*(?P<d>\d\d?)[ \t]*日")
#: `9 日 DNS 解析异常`, `于 23 日完成`: a day of the month said alone, at the start of a clause.
_ZH_DAY_RX = re.compile(
    r"(?:^|(?<=[，,：:；;、。（(\n])|(?<=[，,：:；;、。（(\n][ \t])|(?<=[在于])[ \t]?)(?P<d>\d\d?)[ \t]*日"
    r"(?![ \t]*(?:内|以|之|后|起|前|左|右|上|下|的|天|期|历|均|常|间|班|报|志|记|本|文|元|语|用|程|子|益))"
)


def _zh_days_of_month(ex: _Extractor) -> None:
    """`9 日 DNS 解析异常持续了 18 分钟，23 日证书轮换失败`: a day of the month with no month (`号` is
    too often a number's counter: `2 号线`, `3 号楼`), read as
    one (`---09`) that agrees with any date of that day (`07-09`). Only at the start of a clause or
    after `在`/`于`: `持续 9 日`, `提前 15 日`, `30 日内` are periods."""
    for m in _ZH_DAY_RX.finditer(ex.nt):
        day = int(m.group("d"))
        if 1 <= day <= 31 and ex.free(m.start("d"), m.end()):
            ex.add(_Rec("date", f"---{day:02d}", m.start("d"), m.end()))


_DAY_RANGE_END_RX = re.compile(
    r"[ \t]*(?:-|–|—|to|through|until|till)[ \t]*(?P<d>\d\d?)(?!\d|[:.]\d)(?:,?[ \t]+(?P<y>(?:19|20)\d\d)(?!\d))?"
)
_DAY_BEFORE_RANGE_RX = re.compile(
    r"(?<![\d.])(?P<d>\d\d?)[ \t]*(?:-|–|—|(?<=[ \t])(?:to|through|until|till|and))[ \t]*$"
)


#: A table cell or list item of its own: `| Aug | Jul |`, `Jan, Feb, Mar`.
_CELL_BEFORE_RX = re.compile(r"(?:^|[|,\n])[ \t]*$")
_CELL_AFTER_RX = re.compile(r"[ \t]*(?:$|[|,\n])")


def _bare_month(nt: str, m: re.Match[str], mon: str) -> bool:
    """A month named with no day or year: a full name (`October`, `June`), a bare abbreviation only
    in a table cell, and `May` only after a preposition (`in May`, `by the end of May`)."""
    if mon == "May":
        return _MONTH_PREPOSITION_RX.search(nt, max(0, m.start() - 12), m.start()) is not None
    return len(mon) > 4 or mon.lower() in ("june", "july") or _in_cell(nt, m, mon) or _month_span(nt, m, mon)


#: A span of months written with abbreviations on both sides of a dash: `Jan–Mar`, `Oct-Dec`.
_MONTH_ABBREVIATIONS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
_SPAN_AFTER_RX = re.compile(rf"[ \t]*[-–—][ \t]*(?:{_MONTH_ABBREVIATIONS})\b")
_SPAN_BEFORE_RX = re.compile(rf"\b(?:{_MONTH_ABBREVIATIONS})[ \t]*[-–—][ \t]*$")


def _month_span(nt: str, m: re.Match[str], mon: str) -> bool:
    """`reconciliations for Jan–Mar`: capitalised abbreviations on both sides of a dash name
    months even where `Mar` or `May` alone could be a word (docs/design.md §2.1, "Session 33")."""
    return mon[:1].isupper() and (
        _SPAN_AFTER_RX.match(nt, m.end()) is not None
        or _SPAN_BEFORE_RX.search(nt, max(0, m.start() - 8), m.start()) is not None
    )


def _in_cell(nt: str, m: re.Match[str], mon: str) -> bool:
    """A bare month abbreviation that fills a table cell or a list item (`| Aug | Jul |`) is a month;
    in running text `Mar` and `May` are too often words."""
    return (
        mon not in ("Mar", "May")
        and mon[:1].isupper()
        and _CELL_BEFORE_RX.search(nt, max(0, m.start() - 3), m.start()) is not None
        and _CELL_AFTER_RX.match(nt, m.end()) is not None
    )


def _day_range_end(ex: _Extractor, at: int, month: str, first: int) -> None:
    """`April 18-19`, `March 3 to 5, 2024`: the day after the dash is a date of the same month."""
    end = _DAY_RANGE_END_RX.match(ex.nt, at)
    if end is not None and first < int(end.group("d")) <= 31:
        _ymd(
            ex,
            end.start("d"),
            end.end("y") if end.group("y") else end.end("d"),
            end.group("y"),
            month,
            end.group("d"),
        )


def _ymd(ex: _Extractor, s: int, e: int, year: str | None, month: str | None, day: str | None) -> None:
    y = int(year) if year else None
    mo = int(month) if month else None
    d = int(day) if day else None
    if (mo is not None and not 1 <= mo <= 12) or (d is not None and not 1 <= d <= 31):
        return
    if not ex.free(s, e):
        return
    if y is not None:
        value = f"{y:04d}" + (f"-{mo:02d}" if mo else "") + (f"-{d:02d}" if mo and d else "")
    elif mo is not None:
        value = f"--{mo:02d}" + (f"-{d:02d}" if d else "")
    else:
        return
    ex.add(_Rec("date", value, s, e))


def _after_label_colon(nt: str, s: int) -> bool:
    """`成功的:01:00 开始`, `Opened:07:45`: a colon right after a word, not after a digit (`12:01:00`),
    labels the clock time that follows."""
    return s >= 2 and nt[s - 1] == ":" and not nt[s - 2].isdigit() and not nt[s - 2].isspace()


def _times(ex: _Extractor, digit: bool) -> None:
    nt, lt = ex.nt, ex.lt
    if digit and ":" in nt:
        for m in _CLOCK_RX.finditer(lt):
            if not (ex.left_ok(m.start(), _CLOCK_BEFORE_NT) or _after_label_colon(nt, m.start())):
                continue
            if not ex.free(*m.span()):
                continue
            hour_text, minute_text = m.group().split(":")[:2]
            ap = m.group("ap")
            if ap is None and int(hour_text) < 12:
                # "晚上 6:30" is 18:30, as "晚上六点半" is (the daypart before a digit clock).
                part = _DAYPART_BEFORE_RX.search(nt, max(0, m.start() - 6), m.start())
                late_night = (
                    part is not None and part.group("p") in ("夜里", "夜间", "深夜") and int(hour_text) < 6
                )
                if part is not None and part.group("p") in _PM_PREFIXES and not late_night:
                    ap = "pm"  # (but "深夜 1:30" is 01:30)
                elif _EVENING_AFTER_RX.match(lt, m.end()):
                    ap = "pm"  # "at 7:25 that evening", "7:25 in the evening"
            _clock(ex, m.start(), m.end(), int(hour_text), int(minute_text[:2]), m.group("se"), ap)
    if digit and ("am" in lt or "pm" in lt or "a.m" in lt or "p.m" in lt):
        # `9.30am` (British): the hour and minutes with a dot; it was the number 9.3.
        for m in _DOT_CLOCK_RX.finditer(lt):
            if ex.left_ok(m.start(), _CLOCK_BEFORE_NT) and ex.free(*m.span()):
                hour = int(m.group("h"))
                if 1 <= hour <= 12:
                    _clock(ex, m.start(), m.end(), hour, int(m.group("mi")), None, m.group("ap"))
        for m in _AMPM_RX.finditer(lt):
            if ex.left_ok(m.start(), _CLOCK_BEFORE_NT) and ex.free(*m.span()):
                hour = int(re.match(r"\d+", m.group()).group())  # type: ignore[union-attr]
                if 1 <= hour <= 12:
                    _clock(ex, m.start(), m.end(), hour, 0, None, m.group("ap"))
    if "noon" in lt or "midday" in lt or "midnight" in lt:
        # `at noon` is 12:00 and `midnight` 00:00: a claim's `12:00` was a figure missing from them.
        for m in _NOON_RX.finditer(lt):
            if ex.word_ok(m.start(), m.end()) and ex.free(*m.span()):
                _clock(ex, m.start(), m.end(), 0 if m.group("w") == "midnight" else 12, 0, None, None)
    if "o'clock" in lt or "o’clock" in lt or " in the " in lt or " at night" in lt:
        _daypart_clocks(ex)
    if "点" in nt or "时" in nt:
        carried: tuple[int, str, int] | None = None  # (end, daypart, hour) of a clock a range may continue
        for m in _ZH_CLOCK_RX.finditer(nt):
            if not ex.left_ok(m.start(), _DIGITS_DOT):
                continue
            head = re.match(r"[\d一二两三四五六七八九十]+", m.group())
            part = _DAYPART_BEFORE_RX.search(nt, max(0, m.start() - 4), m.start())
            # "每晚 6 点到 11 点": the range's end is in the daypart its start names.
            inherited = (
                carried[1]
                if part is None
                and carried is not None
                and _RANGE_JOIN_RX.fullmatch(nt, carried[0], m.start())
                else None
            )
            parsed = _parse_number(head.group()) if head is not None else None
            if parsed is None:
                continue
            if not (
                part
                or inherited
                or m.group("mi")
                or m.group("mt")
                or m.group("half")
                or m.group("qt")
                or m.group("z")
                or _bare_hour_clear(nt, m, int(parsed[0]))
            ):
                continue
            hour = int(parsed[0])
            minute = 0
            if m.group("mi") or m.group("mt"):
                mp = _parse_number(m.group("mi") or m.group("mt"))
                minute = int(mp[0]) if mp else 0
            elif m.group("half"):
                minute = 30
            elif m.group("qt"):
                minute = 15 if m.group("qt") == "一刻" else 45
            daypart = part.group("p") if part is not None else inherited
            ap = "pm" if daypart in _PM_PREFIXES or (daypart == "中午" and hour < 11) else None
            if inherited and carried is not None and ap and hour + 12 < carried[2]:
                ap = None  # "晚上 11 点到 1 点" ends after midnight
            carried = (m.end(), daypart, hour + (12 if ap and hour < 12 else 0)) if daypart else None
            _clock(
                ex,
                part.start() if part is not None else m.start(),
                m.end(),
                hour,
                minute,
                m.group("zs"),  # `9 点 12 分 41 秒`
                ap,
                twelve_hour=daypart is None,
            )


_PADDED_MONTH_DAY_RX = re.compile(r"(?P<m>0[1-9])-(?P<d>0[1-9]|[12]\d|3[01])(?![\d\-/.:])")
_POINT_NOUN_STARTS = frozenset("积建要意原注内数击")
_HOUR_NOUN_STARTS = frozenset("间候长段效限薪辰区")
_HOUR_AFTER = frozenset("起前后整至到许")
_RANGE_JOIN_RX = re.compile(r"[ \t]*(?:到|至|~|-|–|—)[ \t]*")
_ZH_HOUR_RANGE_END_RX = re.compile(r"[ \t]*(?:到|至|~|-|–|—)[ \t]*(?P<h>\d\d?)[ \t]*(?:点|[:：][0-5]\d)")


def _bare_hour_clear(nt: str, m: re.Match[str], hour: int) -> bool:
    """`17 点` is 17:00 (an hour past noon is never a.m.); `10 点到 17 点` (or `到 17:30`) runs from 10:00
    (a span that ends in the afternoon starts the same day). `8 点` alone could be either, so it stays a number."""
    if nt[m.start()].isdigit() and "时" in m.group():
        # `9 月 14 日 16 时`, `15 日 20 时起`: the official way of writing an hour, after a day or
        # before 起/前/后/整 (not `时间`, `时长`, `时段`).
        after = nt[m.end() : m.end() + 1]
        before = nt[max(0, m.start() - 2) : m.start()].strip()
        return (
            hour <= 24
            and after not in _HOUR_NOUN_STARTS
            and (before.endswith(("日", "号")) or after in _HOUR_AFTER)
        )
    if not nt[m.start()].isdigit() or "时" in m.group() or nt[m.end() : m.end() + 1] in _POINT_NOUN_STARTS:
        return False  # `17 点积分`, `15 点建议`: points and items, not hours
    if 13 <= hour <= 23:
        return True
    end = _ZH_HOUR_RANGE_END_RX.match(nt, m.end())
    return end is not None and hour < int(end.group("h")) and 13 <= int(end.group("h")) <= 23


def _clock(
    ex: _Extractor,
    s: int,
    e: int,
    hour: int,
    minute: int,
    second: str | None,
    ap: str | None,
    *,
    twelve_hour: bool = False,
) -> None:
    if ap:
        pm = ap.startswith("p")
        if pm and hour < 12:
            hour += 12
        elif not pm and hour == 12:
            hour = 0
    if not (0 <= hour <= 24 and 0 <= minute <= 59) or not ex.free(s, e):
        return
    value = f"{hour:02d}:{minute:02d}"
    if second and int(second):
        value += f":{int(second):02d}"
    # `两点半` with no daypart before it is either half of the day (`12h`): 14:30 bears it out.
    ex.add(_Rec("time", value, s, e, qualifier="12h" if twelve_hour and hour < 12 else None))


def _last_n(n: float, unit: str) -> str:
    if unit == "week":
        n, unit = n * 7, "day"
    return f"relative:last:{unit}:{int(n) if float(n).is_integer() else n}"


_EVENING_AFTER_RX = re.compile(
    r"[ \t]+(?:(?:that|in[ \t]+the|this|on[ \t]+the)[ \t]+)?(?:evening|afternoon|night)\b|[ \t]+tonight\b"
)
_DOT_CLOCK_RX = re.compile(r"(?P<h>\d\d?)\.(?P<mi>[0-5]\d)[ \t]*(?P<ap>a\.m\.|p\.m\.|am|pm)(?![a-z])")
_NOON_RX = re.compile(r"(?:12[ \t]+)?(?P<w>noon|midday|midnight)")
_CLOCK_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"  # hours of a twelve-hour clock
)
_DAYPART_CLOCK_RX = re.compile(
    rf"(?P<h>1[0-2]|0?[1-9]|{_CLOCK_WORDS})(?![a-z0-9])(?P<oc>[ \t]*o['’]clock)?"
    r"(?:[ \t]+in[ \t]+the[ \t]+(?P<p>morning|afternoon|evening)|[ \t]+(?P<n>at[ \t]+night|tonight))"
)
#: Without `o'clock`, a time word before the number (`sold 5 in the morning` is a count).
_AT_BEFORE_RX = re.compile(r"(?<![a-z])(?:at|by|until|till|around|about|before|after|since|from|to)[ \t]+$")
_CLOCK_NUMBER = {w: i + 1 for i, w in enumerate(_CLOCK_WORDS.split("|"))}


def _daypart_clocks(ex: _Extractor) -> None:
    """`3 o'clock in the afternoon`, `six in the morning`, `10 at night`: clock times with the daypart
    written out (they were a bare number, so `15:00` read against them was missing)."""
    lt = ex.lt
    for m in _DAYPART_CLOCK_RX.finditer(lt):
        if not ex.left_ok(m.start(), _CLOCK_BEFORE_NT) or not ex.free(*m.span()):
            continue
        if m.group("oc") is None and _AT_BEFORE_RX.search(lt, max(0, m.start() - 8), m.start()) is None:
            continue
        h = m.group("h")
        hour = int(h) if h.isdigit() else _CLOCK_NUMBER[h]
        part = m.group("p")
        late = m.group("n") is not None
        # `in the evening` / `at night` are afternoon hours, except the small hours (`2 at night`).
        pm = part in ("afternoon", "evening") or (late and hour >= 6)
        ap = "pm" if pm else ("am" if part == "morning" or late else None)
        if part == "afternoon" and hour == 12:
            ap = None  # `12 in the afternoon` is noon
        _clock(ex, m.start(), m.end(), hour, 0, None, ap)


_DECADE_RX = re.compile(r"(?P<y>1[0-9]\d0|20\d0)['’]?s(?![a-z0-9])")  # lower-cased text
