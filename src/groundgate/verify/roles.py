"""People named with their role in Chinese prose: `财务总监刘珊表示`, `产品总监林晓介绍`.

A Chinese answer that attributes a statement or a deed to a person names them with a role directly
before the name. English claims have capitalised names for this (`offline_checker._novel_entities`);
Chinese has no capitals, so a name the context never writes (`林晓` where the context quotes `CEO 陈嘉禾`)
or a role the context gives someone else (`首席执行官刘珊` where 刘珊 is the `财务总监`) passed on the
sentence's other words (docs/design.md §2.1, "People and roles"). Pure: no I/O.
"""

from __future__ import annotations

import re

from groundgate.text.names import SURNAMES

__all__ = ["role_name_findings"]

#: Roles that stand right before a person's name in news, HR and ops prose.
_ROLES = (
    "首席执行官|首席财务官|首席技术官|首席运营官|董事长|副董事长|总裁|副总裁|总经理|副总经理|总监|经理|"
    "主任|主席|部长|局长|市长|省长|院长|校长|处长|科长|主管|组长|发言人|负责人|创始人|主教练|教练|队长|"
    "前锋|后卫|中场|门将|记者|律师|教授|医生|CEO|CFO|CTO|COO"
)
_ROLE_NAME = re.compile(rf"(?P<role>[\u4e00-\u9fff]{{0,2}}(?:{_ROLES}))\s*(?P<name>[\u4e00-\u9fff]{{2,3}})")
#: Characters that end a name's run rather than belong to it (`刘珊表示`, `周屹头球`).
_AFTER_NAME = re.compile(
    r"(?:表示|介绍|说|称|指出|认为|透露|强调|在|于|和|与|的|也|则|已|将|是|头球|打入|破门)"
)


def _name(claim: str, m: re.Match[str]) -> str:
    """The name after a role: two characters when a verb or particle follows them (`刘珊表示`,
    `周屹头球`), else the run as found (`陈嘉禾`)."""
    run = m.group("name")
    if len(run) == 3 and _AFTER_NAME.match(claim, m.start("name") + 2):
        return run[:2]
    return run


def role_name_findings(claim: str, context: str) -> list[str]:
    """Reason codes for the people the claim names with a role: `name_not_in_evidence:林晓` for a name
    the context never writes, `role_elsewhere:首席执行官刘珊->财务总监` for a name the context gives only
    another role."""
    findings: list[str] = []
    for m in _ROLE_NAME.finditer(claim):
        role, name = m.group("role"), _name(claim, m)
        if name[0] not in SURNAMES:
            continue  # `负责人审批`, `经理签字`: a verb after the role, not a person
        if name not in context and not (len(name) == 3 and name[:2] in context):
            findings.append(f"name_not_in_evidence:{name}")
            continue
        theirs = {
            other.group("role")
            for other in _ROLE_NAME.finditer(context)
            if other.group("name").startswith(name[:2])
        }
        if theirs and not any(_same_role(role, r) for r in theirs):
            findings.append(f"role_elsewhere:{role}{name}->{sorted(theirs)[0]}")
    return findings


_CORE_ROLE = re.compile(rf"(?:{_ROLES})$")


def _same_role(mine: str, theirs: str) -> bool:
    """The same post, whatever the words before it (`北港后卫` ~ `联队后卫`; conservative: `产品总监` ~
    `财务总监` too, only a different post such as `首席执行官` / `财务总监` counts)."""
    a, b = _CORE_ROLE.search(mine), _CORE_ROLE.search(theirs)
    return a is not None and b is not None and a.group() == b.group()
