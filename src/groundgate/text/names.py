"""Chinese personal names: the surnames a two- or three-character name starts with.

Chinese has no capitals, so a name is told from other words by where it stands (after a role, before
"的待办") and by its first character. Pure: no I/O.
"""

from __future__ import annotations

__all__ = ["SURNAMES", "looks_like_name"]

#: The common Chinese surnames: a run of two or three characters that starts with none of them is no
#: personal name (`负责人审批` after a role, `这周手上` before a task word).
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴"
    "莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯"
    "纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车"
)


#: Pronouns and function characters: "周我" (of "下周我手上") is no name.
_NEVER_IN_NAMES = frozenset("我你您他她它们的了是在有这那和与及也都就还要")


def looks_like_name(word: str) -> bool:
    """Two or three Chinese characters starting with a common surname (`张伟`, `王小明`)."""
    return (
        2 <= len(word) <= 3
        and word[0] in SURNAMES
        and all("\u4e00" <= c <= "\u9fff" and c not in _NEVER_IN_NAMES for c in word)
    )
