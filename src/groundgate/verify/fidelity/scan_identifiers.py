"""Extraction passes for identifiers and versions.

Run first: URLs, UUIDs and trace ids, IPs, hex and long ids, HTTP paths and file paths. Later: HTTP
statuses and error codes, product and keyword versions (`java 17`, `v2.3.1`), and names (dotted hosts
and config keys, snake_case, CamelCase and kebab-case service names).
"""

from __future__ import annotations

import re

from groundgate.verify.fidelity.lexicon import _KEBAB_STOP_PARTS, _NOT_CODES, _NOT_IDENTIFIERS, _PRODUCTS
from groundgate.verify.fidelity.numbers import _norm_version
from groundgate.verify.fidelity.patterns import (
    _ALPHA_CHARS,
    _CAMEL_GATE_RX,
    _CAMEL_RX,
    _CAPS_DASH_RX,
    _DASHCODE_RX,
    _DOTTED_RX,
    _ERRCODE_KW_RX,
    _FILE_RX,
    _HEX_RX,
    _HTTP_PHRASE_RX,
    _HTTP_STATUS_RX,
    _IP_RX,
    _KEBAB_RX,
    _LETTERCODE_RX,
    _LONG_ID_RX,
    _METHOD_BEFORE_RX,
    _PASCAL_RX,
    _PATH_BEFORE,
    _PATH_RX,
    _PRODUCT_RX,
    _PRODUCT_VERSION_RX,
    _SCREAMING_RX,
    _SEMVER_RX,
    _SNAKE_RX,
    _TRACE_RX,
    _URL_RX,
    _UUID_RX,
    _V_BEFORE_NT,
    _V_VERSION_RX,
    _VERSION_KW_RX,
)
from groundgate.verify.fidelity.scan import _Extractor, _Rec

#: Hyphenated number words (`forty-five`) are a number, not a name.
#: `above-1,000 ppm`: the number after the hyphen goes on past a thousands comma or a decimal point
#: (`ip-10-4-7-21，36 秒后` only has a clause comma after it).
_NUMBER_GOES_ON_RX = re.compile(r",\d{3}(?!\d)|\.\d")
_NOT_KEBAB_ID_RX = re.compile(
    r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?:one|two|three|four|five|six|seven|eight|nine)"
    # `five-star`, `two-day`, `three-year`: a spelled count made an adjective.
    r"|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|single|double|half)-[a-z]+"
    # A compound adjective of prose (`voter-approved`, `state-funded`, `cloud-based`, `tax-free`,
    # `city-wide`): English, not a service's name.
    r"|[a-z]+-(?:[a-z]+ed|based|free|wide|friendly|long|owned|led|run|made|sized|related|specific|level)"
    # `the under-21 category`, `over-65s`: an age bound, read as a comparator and its figure
    r"|(?:under|over)-\d+s?"
)


def identifiers_early(ex: _Extractor, digit: bool) -> None:
    nt, lt = ex.nt, ex.lt
    if "://" in lt:
        for m in _URL_RX.finditer(lt):
            s, e = m.start(), m.end()
            while e > s and nt[e - 1] in ".,;:!?":
                e -= 1
            if ex.left_ok(s, _ALPHA_CHARS) and ex.free(s, e):
                ex.add(_Rec("identifier", nt[s:e], s, e, qualifier="url"))
    if digit:
        if "-" in nt:
            for m in _UUID_RX.finditer(lt):
                if ex.free(*m.span()):
                    ex.add(
                        _Rec(
                            "identifier",
                            nt[m.start() : m.end()],
                            m.start(),
                            m.end(),
                            qualifier="trace_id",
                        )
                    )
        if nt.count(".") >= 3:
            for m in _IP_RX.finditer(nt):
                octets = m.group().split(":")[0].split(".")
                if all(int(o) <= 255 for o in octets) and ex.free(*m.span()):
                    ex.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="ip"))
        if "0x" in lt:
            for m in _HEX_RX.finditer(lt):
                if ex.free(*m.span()):
                    ex.add(
                        _Rec(
                            "identifier",
                            nt[m.start() : m.end()],
                            m.start(),
                            m.end(),
                            qualifier="error_code",
                        )
                    )
        for m in _TRACE_RX.finditer(lt):
            word = m.group()
            if not word.isdigit() and any(c.isdigit() for c in word) and ex.free(*m.span()):
                ex.add(_Rec("identifier", nt[m.start() : m.end()], m.start(), m.end(), qualifier="trace_id"))
        for m in _LONG_ID_RX.finditer(nt):
            if ex.free(*m.span()):
                ex.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="id"))
    if "/" in nt:
        for m in _PATH_RX.finditer(nt):
            path = m.group().rstrip(".")
            s = m.start()
            if not ex.left_ok(s, _PATH_BEFORE) or not any(c.isalpha() for c in path):
                continue
            if path.count("/") == 1 and len(path) < 3:
                continue
            method = _METHOD_BEFORE_RX.search(nt, max(0, s - 10), s)
            start = method.start() if method is not None else s
            if ex.free(start, s + len(path)):
                value = f"{method.group().strip()} {path}" if method is not None else path
                ex.add(_Rec("identifier", value, start, s + len(path), qualifier="path"))
        if "." in nt:
            for m in _FILE_RX.finditer(nt):
                if ex.free(*m.span()):
                    ex.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="path"))


def codes(ex: _Extractor, digit: bool) -> None:
    nt, lt = ex.nt, ex.lt
    if digit:
        if "http" in lt or "状态码" in nt or "status" in lt:
            for m in _HTTP_STATUS_RX.finditer(lt):
                if ex.left_ok(m.start(), _ALPHA_CHARS) and ex.free(*m.span()):
                    code = m.group()[-3:]
                    ex.add(_Rec("identifier", f"HTTP {code}", m.start(), m.end(), qualifier="http_status"))
        for m in _HTTP_PHRASE_RX.finditer(lt):
            if ex.free(*m.span()):
                code = m.group()[:3]
                ex.add(_Rec("identifier", f"HTTP {code}", m.start(), m.end(), qualifier="http_status"))
    if "码" in nt or "err" in lt:
        for m in _ERRCODE_KW_RX.finditer(lt):
            s, e = m.span("code")
            code = nt[s:e]
            if not (any(c.isdigit() or c in "_-" for c in code) or code.isupper()):
                continue  # "which error code does a merchant get": a word, not a code
            if ex.left_ok(m.start(), _ALPHA_CHARS) and ex.free(s, e):
                ex.add(_Rec("identifier", nt[s:e], s, e, qualifier="error_code"))
    patterns: list[re.Pattern[str]] = []
    if "_" in nt:
        patterns.append(_SCREAMING_RX)
    if "-" in nt:
        patterns.extend((_DASHCODE_RX, _CAPS_DASH_RX))
    if digit:
        patterns.append(_LETTERCODE_RX)
    for rx in patterns:
        for m in rx.finditer(nt):
            if m.group() not in _NOT_CODES and ex.free(*m.span()):
                ex.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="error_code"))


def versions(ex: _Extractor, alpha: bool) -> None:
    nt, lt = ex.nt, ex.lt
    if alpha:
        for m in _PRODUCT_VERSION_RX.finditer(lt):
            if not ex.left_ok(m.start(), _V_BEFORE_NT) or not ex.free(*m.span()):
                continue
            product = _PRODUCT_RX.match(lt, m.start())
            if product is None:
                continue
            name = _PRODUCTS.get(re.sub(r"[ \t]+", " ", product.group()))
            if name is None:
                name = _PRODUCTS.get(product.group().replace(" ", "").replace("\t", ""))
            ex.add(_Rec("version", _norm_version(m.group("ver")), m.start(), m.end(), qualifier=name))
    if "版本" in nt or alpha:
        for m in _VERSION_KW_RX.finditer(lt):
            if ex.left_ok(m.start(), _ALPHA_CHARS) and ex.free(*m.span()):
                ex.add(_Rec("version", _norm_version(m.group("ver")), m.start(), m.end()))
    if "v" in lt:
        for m in _V_VERSION_RX.finditer(lt):
            if ex.left_ok(m.start(), _V_BEFORE_NT) and ex.free(*m.span()):
                ex.add(_Rec("version", _norm_version(m.group("ver")), m.start(), m.end()))
    if nt.count(".") >= 2:
        for m in _SEMVER_RX.finditer(nt):
            if ex.free(*m.span()):
                ex.add(_Rec("version", _norm_version(m.group()), m.start(), m.end()))


def names(ex: _Extractor) -> None:
    nt = ex.nt
    if "." in nt:
        for m in _DOTTED_RX.finditer(nt):
            word = m.group()
            parts = word.split(".")
            if word.lower() in _NOT_IDENTIFIERS or all(len(p) <= 1 for p in parts) or not ex.free(*m.span()):
                continue
            tld = parts[-1].lower() in {"com", "net", "org", "io", "cn", "local", "internal"}
            ex.add(_Rec("identifier", word, m.start(), m.end(), qualifier="host" if tld else "config_key"))
    if "_" in nt:
        for m in _SNAKE_RX.finditer(nt):
            if ex.free(*m.span()):
                ex.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="config_key"))
    if _CAMEL_GATE_RX.search(nt):
        for rx in (_CAMEL_RX, _PASCAL_RX):
            for m in rx.finditer(nt):
                if m.group().lower() not in _NOT_IDENTIFIERS and ex.free(*m.span()):
                    ex.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="service"))
    if "-" in nt:
        for m in _KEBAB_RX.finditer(nt):
            word = m.group()
            if not any(c.isdigit() for c in word) and any(p in _KEBAB_STOP_PARTS for p in word.split("-")):
                continue
            if _NOT_KEBAB_ID_RX.fullmatch(word) or _NUMBER_GOES_ON_RX.match(nt, m.end()):
                continue  # `forty-five`: a number; `voter-approved`: an adjective; `above-1,000`: a bound
            if ex.free(*m.span()):
                ex.add(_Rec("identifier", word, m.start(), m.end(), qualifier="service"))
