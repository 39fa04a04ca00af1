"""The public data model of the fidelity checks.

The mention kinds and comparators, `Mention` (one fact-bearing span with its normalised value),
`Mentions` (all of one text), `FidelityIssue` and every issue code either check can report; also the
private groups of kinds (numeric, date-like, valued) the extraction and the checks branch on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

MentionKind = Literal[
    "amount",
    "percent",
    "duration",
    "size",
    "measure",
    "count",
    "number",
    "range",
    "date",
    "period",
    "time",
    "comparator",
    "negation",
    "version",
    "identifier",
]
Comparator = Literal["<=", ">=", "<", ">"]
Severity = Literal["contradiction", "warning"]
MentionValue = float | str | tuple[float, float]

#: Every issue code either check can report.
ISSUE_CODES: frozenset[str] = frozenset(
    {
        "identifier_not_in_evidence",
        "number_mismatch",
        "number_not_in_evidence",
        "number_rounded",
        "currency_mismatch",
        "unit_mismatch",
        "comparator_changed",
        "negation_flip",
        "date_mismatch",
        "version_mismatch",
        "version_not_in_evidence",
        "constraint_lost",
    }
)


@dataclass(frozen=True, slots=True)
class Mention:
    """One fact-bearing span of a text, with its normalised value.

    `value` depends on `kind`:

    - `amount`: float, `unit` = ISO currency (`CNY`, `USD`, …) or None (`5千`, `5k`);
    - `percent`: float, `unit` = `%` or `pp` (percentage points);
    - `duration`: float in seconds when `unit` is `s`; in months when `unit` is `month` (years count 12);
      in working days when `unit` is `workday`;
    - `size`: float in bytes, `unit` = `B`;
    - `measure`: float in the base unit `m`, `g`, `L`, `Hz` or `°C`;
    - `count`: float, `unit` = the classifier (`次`→`times`, `个`, `台`, `qps`, …) or None;
    - `number`: float, no unit;
    - `range`: `(low, high)` in the base unit, `qualifier` = the kind of the endpoints;
    - `date` / `period` / `time`: a string (see the module doc);
    - `comparator`: `<=`, `>=`, `<` or `>`; `qualifier` is `attached` when it governs a value mention;
    - `negation`: the cue, lower-cased (`无需`, `not`);
    - `version`: the dotted number without `v` and trailing `.0`, `qualifier` = product (`java`) or None;
    - `identifier`: the identifier as written (`HTTP 504` for status codes), `qualifier` = its sort
      (`error_code`, `http_status`, `path`, `url`, `service`, `config_key`, `host`, `ip`, `trace_id`, `id`).
    """

    kind: MentionKind
    value: MentionValue
    text: str
    start: int
    end: int
    unit: str | None = None
    surface_unit: str | None = None
    """The unit as written, canonicalised (`min`, `h`, `MB`, `元`): `unit_mismatch` compares it."""
    raw: float | None = None
    """The number as written, magnitude words included but before unit conversion (`2分钟` → 2)."""
    comparator: Comparator | None = None
    """The comparator governing this value (`不超过5000元` → `<=`)."""
    spelled: bool = False
    """Written in words (`三次`, `three days`) rather than digits."""
    qualifier: str | None = None


@dataclass(frozen=True, slots=True)
class Mentions:
    """All mentions of one text, ordered by position. Immutable, so `extract` can cache it."""

    text: str
    items: tuple[Mention, ...]

    def __iter__(self) -> Iterator[Mention]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> Mention:
        return self.items[index]

    def of(self, *kinds: MentionKind) -> tuple[Mention, ...]:
        """The mentions of the given kinds, in text order."""
        wanted = frozenset(kinds)
        return tuple(m for m in self.items if m.kind in wanted)

    def values(self, *kinds: MentionKind) -> list[MentionValue]:
        """Just the normalised values of the given kinds (handy in tests and logs)."""
        return [m.value for m in self.of(*kinds)]


@dataclass(frozen=True, slots=True)
class FidelityIssue:
    """One lost constraint or contradiction signal, with a readable English `detail`."""

    code: str
    severity: Severity
    detail: str
    claim_mention: str | None
    """The span of the claim (use b) or of the question (use a) the issue is about."""
    evidence_mention: str | None
    """The differing span of the evidence (use b) or of the plan (use a), if there is one."""


_NUMERIC_KINDS = frozenset({"amount", "percent", "duration", "size", "measure", "count", "number"})
_DATE_KINDS = frozenset({"date", "period", "time"})
_VALUE_KINDS = _NUMERIC_KINDS | _DATE_KINDS | {"range"}
