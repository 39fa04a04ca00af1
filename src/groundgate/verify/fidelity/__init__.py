"""Deterministic fidelity checks: numbers, units, dates, comparators, negation, versions, identifiers.

DESIGN invariant 6 ("numbers stay numbers") in code, for Chinese and English text:

- `extract(text)` finds every *mention* a fact can hinge on — amounts with currency, percentages and
  percentage points, durations (normalised to seconds), data sizes (normalised to bytes), counts,
  plain numbers, ranges, dates / periods / times of day, comparators, negation cues, versions and
  identifiers (error codes, HTTP paths, service names, trace ids, hosts, config keys) — each with a
  normalised value and its offsets in the original text.
- `compare_constraints(question, plan_text)` (use a): every constraint of the question must survive
  planning unchanged; each one lost or changed is an issue.
- `check_claim(claim, aligned_evidence, all_evidence)` (use b): contradiction signals between one
  claim and its evidence (seed 000: a fabricated identifier or a changed number is `contradicted`).

Everything is regex and table driven: regexes are compiled at import, `extract` is cached by the
string (evidence text repeats for every claim), and no model is involved.

Normalisation choices worth knowing:

- Text is NFKC-folded first (full-width digits, `％`, `￥`, `，` …), offsets always point into the
  original string.
- Magnitudes are folded into the value: `5千元` == `5000元` == `¥5,000` == `five thousand yuan`.
  `¥` and `元`/`块` are CNY, `$` is USD.
- Durations in seconds (`2分钟` == `120秒` == `2 minutes`); months and years in months (`半年` ==
  `6个月`), working days in `workday`: they do not convert exactly to seconds (a claim is still
  accepted when it matches at 30 days a month).
- Data sizes in bytes with binary multiples (`512MB` == `0.5 GB`, `512M` is 512 MiB).
- Lengths, masses, volumes, frequencies and temperatures are `measure`s in m, g, L, Hz and °C.
- Dates are ISO-like strings: `2026-03-15`, `2026-03`, `2026`, `--03-15` (no year), `--03`,
  `---15`, `2026-Q3`, `Q3`, `2026-H1`, `weekday:1` (Monday); relative periods stay symbolic:
  `relative:month:-1` (上个月 / last month), `relative:week:+1:weekday:1` (下周一),
  `relative:last:day:7` (近7天 / past 7 days); times of day are `HH:MM` (24 h).

The package, in the order it depends:

- `model`: the public types and issue codes;
- `units`, `lexicon`, `cues`, `patterns`, `numbers`: tables, compiled regexes and number parsing;
- `scan` and the `scan_*` passes (identifiers, dates, quantities, cues), run by `extraction`;
- `matching`, `negation`, `evidence`: comparing values, negation analysis, the evidence index;
- `report`, `replaced`, `check_numbers`, `check_facts`, `checks`: the per-kind checks and the two public checks.

Import from the package itself (`from groundgate.verify.fidelity import check_claim`); the modules
are its inside.
"""

from __future__ import annotations

from groundgate.verify.fidelity.checks import (
    MAX_CLAIM_MENTIONS,
    check_claim,
    compare_constraints,
    figures_read_elsewhere,
)
from groundgate.verify.fidelity.conditions import ConditionRows, read_condition_rows
from groundgate.verify.fidelity.evidence import EvidenceIndex, index_evidence
from groundgate.verify.fidelity.extraction import extract, negation_cues, polarity
from groundgate.verify.fidelity.model import (
    ISSUE_CODES,
    Comparator,
    FidelityIssue,
    Mention,
    MentionKind,
    Mentions,
    MentionValue,
    Severity,
)

__all__ = [
    # The data model
    "Mention",
    "MentionKind",
    "MentionValue",
    "Mentions",
    "Comparator",
    "Severity",
    "FidelityIssue",
    "ISSUE_CODES",
    # Extraction
    "extract",
    "negation_cues",
    "polarity",
    # Evidence lookups
    "EvidenceIndex",
    "index_evidence",
    # The checks
    "compare_constraints",
    "check_claim",
    "figures_read_elsewhere",
    "ConditionRows",
    "read_condition_rows",
    "MAX_CLAIM_MENTIONS",
]
