"""The case a question sets, and the cases it rules out (docs/design.md §8).

"出差当天出发的话…", "if the merchant is new", "我是实习生", a scene sentence telling an abnormal state
("one of our keys leaked this morning. …"): the answering statement must say that case itself, the
general rule under the same heading answers another one. "苏州不是省会，也不是计划单列市": the rows of
those categories are other cases.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.contracts import AnswerKind, Need
from groundgate.questions.parts import CASE_EN, CASE_ZH
from groundgate.text.segmentation import is_cjk_text

__all__ = ["set_case"]


def set_case(need: Need) -> None:
    """Fill `need.excluded_terms` and `need.case_terms` from its text (and drop excluded words from
    its terms)."""
    # "苏州不是省会，也不是计划单列市": the rows of those categories are other cases, and their
    # words are no subject an answer must name.
    need.excluded_terms = _excluded_categories(need.text)
    if need.excluded_terms:
        need.terms = [t for t in need.terms if not any(t in x or x in t for x in need.excluded_terms)]
    # A case the question sets ("出差当天出发的话", "if the merchant is new") must be said by the
    # answer: the general rule under the same heading answers another case.
    clause = _case_clause(need.text)
    if clause:
        case = [t for t in need.terms if t.lower() in clause.lower()]
        # When the case is all the question names, it is the subject, checked as terms are.
        need.case_terms = case if len(case) < len(need.terms) else []
    elif need.kind is not AnswerKind.REASON:
        need.case_terms = _scene_states(need.text, need.terms)


#: `是不是` / `算不算` ask yes or no (an A-not-A form, "是不是网关 p99 根本没超过 1500"): no category is
#: set aside there (Session 31).
_EXCLUDED_ZH: Final = re.compile(
    r"(?:(?<!是)不是|并非|不属于|(?<!算)不算|而非)\s*([\u4e00-\u9fff]{2,8}?)(?=[，,。；;）)、]|也|$|\s)"
)
_EXCLUDED_EN: Final = re.compile(
    # "Suzhou is not a provincial capital": a category (an article before it), not a predicate
    # ("the offsets are not moving" says what happens, it rules out no row).
    r"\b(?:is|are|was|were)(?:\s+not|n't)\s+(?:a|an|the|one of the)\s+([a-z][a-z\- ]{2,30}?)"
    r"(?=\s*(?:[,.;)]|$|\s+(?:and|or|nor|but)\b))",
    re.IGNORECASE,
)


def _excluded_categories(text: str) -> list[str]:
    """What the question says its case is not: `苏州不是省会，也不是计划单列市` → 省会, 计划单列市."""
    found = [m.group(1) for m in _EXCLUDED_ZH.finditer(text)]
    found += [m.group(1).strip().lower() for m in _EXCLUDED_EN.finditer(text)]
    return list(dict.fromkeys(x for x in found if x))


#: The kind of staff the asker says they are ("我是实习生，…", "I'm a contractor —"): a policy for
#: staff in general (often written for regular employees only) answers another case.
_ASKER_GROUP: Final = re.compile(
    r"我是(?P<case>实习生|外包(?:员工)?|派遣员工|劳务派遣|兼职|临时工|试用期员工|顾问)"
    r"|\bI(?:'m| am)\s+(?:an?\s+)?(?P<en>intern|contractor|temp|part[- ]timer|consultant)\b",
    re.IGNORECASE,
)


def _case_clause(text: str) -> str:
    """The case a question sets before it asks (`出差当天出发的话`, `if the key leaked,`, `我是实习生`),
    or ``."""
    group = _ASKER_GROUP.search(text)
    if group:
        return group.group("case") or group.group("en")
    found = CASE_ZH.match(text) if is_cjk_text(text) else CASE_EN.search(text)
    if found is None or _TOPIC_OPENER.match(found.group(0)):
        # "In the February 18 callback storm, …" names what the question is about (its subject,
        # checked as terms are, headings included), not a case the answer must state itself.
        return ""
    return found.group("case")


_TOPIC_OPENER: Final = re.compile(r"\s*(?:in|for|during)\s+the\b", re.IGNORECASE)

#: Words that put a thing in an abnormal state: a scene sentence saying one ("We think one of our keys
#: *leaked* this morning. Will the old key keep working …?") sets the case the rule must be for — the
#: normal rotation's overlap window is another case's answer.
_ABNORMAL_STATES: Final = frozenset(
    {
        "leaked", "leak", "compromised", "stolen", "lost", "expired", "frozen", "suspended", "revoked",
        "breached", "exposed", "泄露", "泄漏", "被盗", "丢失", "遗失", "过期", "冻结", "吊销", "挂失",
    }
)  # fmt: skip


def _scene_states(text: str, terms: Sequence[str]) -> list[str]:
    """The terms of an abnormal state said in a sentence before the asking one (`_ABNORMAL_STATES`)."""
    sentences = [x for x in re.split(r"(?<=[.!。！])\s*", text.strip()) if x.strip()]
    if len(sentences) < 2:
        return []
    scene = " ".join(sentences[:-1]).lower()
    return [t for t in terms if t.lower() in _ABNORMAL_STATES and t.lower() in scene and len(terms) > 1]
