"""check-eval figures of the offline checker on the `test` splits, into docs/benchmarks.md.

    python benchmarks/eval_checker.py [--split test|tune] [--no-write]

Sets: the hand-written bilingual dev set (tests/data/check_dev.jsonl, its own `split` field) and the
public HaluQA / HaluSum sets in ../shared/data/checker-en/ (split by a hash of the pair id,
`groundgate.evaluation.scoring.checker_scores.split_of`). Tune on `tune`, report `test`: the same figures as
`groundgate check-eval --input FILE --split test`, plus the reliability table, the per-kind
breakdown of the dev set, and the learned support model's standalone balanced accuracy and load time.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
from pathlib import Path

from _report import write_section
from groundgate.apps.grounding_check import run_eval
from groundgate.evaluation.scoring.checker_scores import EvalFigures, EvalReport, Split

ROOT = Path(__file__).resolve().parent.parent
DEV = ROOT / "tests" / "data" / "check_dev.jsonl"
DEV_V3 = ROOT / "tests" / "data" / "check_dev_v3.jsonl"
DEV_V4 = ROOT / "tests" / "data" / "check_dev_v4.jsonl"
DEV_V5 = ROOT / "tests" / "data" / "check_dev_v5.jsonl"
DEV_V6 = ROOT / "tests" / "data" / "check_dev_v6.jsonl"
DEV_V7 = ROOT / "tests" / "data" / "check_dev_v7.jsonl"
DEV_V8 = ROOT / "tests" / "data" / "check_dev_v8.jsonl"
DEV_V9 = ROOT / "tests" / "data" / "check_dev_v9.jsonl"
DEV_V10 = ROOT / "tests" / "data" / "check_dev_v10.jsonl"
DEV_V11 = ROOT / "tests" / "data" / "check_dev_v11.jsonl"
DEV_V12 = ROOT / "tests" / "data" / "check_dev_v12.jsonl"
DEV_V13 = ROOT / "tests" / "data" / "check_dev_v13.jsonl"
DEV_V14 = ROOT / "tests" / "data" / "check_dev_v14.jsonl"
DEV_V15 = ROOT / "tests" / "data" / "check_dev_v15.jsonl"
DEV_V16 = ROOT / "tests" / "data" / "check_dev_v16.jsonl"
DEV_V17 = ROOT / "tests" / "data" / "check_dev_v17.jsonl"
DEV_V18 = ROOT / "tests" / "data" / "check_dev_v18.jsonl"
DEV_V19 = ROOT / "tests" / "data" / "check_dev_v19.jsonl"
DEV_V20 = ROOT / "tests" / "data" / "check_dev_v20.jsonl"
DEV_V21 = ROOT / "tests" / "data" / "check_dev_v21.jsonl"
DEV_V22 = ROOT / "tests" / "data" / "check_dev_v22.jsonl"
"""140 pairs written blind in session 21 (all `tune`: measured once unseen, then tuned on)."""
SHARED = ROOT.parent / "shared" / "data" / "checker-en"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/data/checker-en")
PUBLIC = {"HaluQA": SHARED / "haluqa.jsonl", "HaluSum": SHARED / "halusum.jsonl"}


def _row(name: str, f: EvalFigures, reject: EvalFigures) -> str:
    return (
        f"| {name} | {f.count} | {f.precision:.3f} | {f.recall:.3f} | {f.f1:.3f} | "
        f"{f.balanced_accuracy:.3f} | {reject.precision:.3f} ({reject.confusion.true_positive + reject.confusion.false_positive}) |"
    )


def _reliability(name: str, report: EvalReport) -> list[str]:
    return [
        f"| {name} | "
        + " | ".join(
            f"{b.hallucination_rate:.2f} ({b.count})" if b.hallucination_rate is not None else "— (0)"
            for b in report.reliability
        )
        + f" | {report.score_source} |"
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=("test", "tune"), default="test")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    split: Split = args.split

    reports: dict[str, EvalReport] = {}
    for name, path in PUBLIC.items():
        if path.is_file():
            reports[name], _ = run_eval(path, split=split, group_by=None)
    reports["dev"], _ = run_eval(DEV, split=split, group_by=None)
    dev = reports["dev"]
    v3, _ = run_eval(DEV_V3, split="tune", group_by="lang")
    v4 = {part: run_eval(DEV_V4, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v5 = {part: run_eval(DEV_V5, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v6 = {part: run_eval(DEV_V6, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v7 = {part: run_eval(DEV_V7, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v8 = {part: run_eval(DEV_V8, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v9 = {part: run_eval(DEV_V9, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v10 = {part: run_eval(DEV_V10, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v11 = {part: run_eval(DEV_V11, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v12 = {part: run_eval(DEV_V12, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v13 = {part: run_eval(DEV_V13, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v14 = {part: run_eval(DEV_V14, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v15 = {part: run_eval(DEV_V15, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v16 = {part: run_eval(DEV_V16, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v17 = {part: run_eval(DEV_V17, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v18 = {part: run_eval(DEV_V18, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v19 = {part: run_eval(DEV_V19, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v20 = {part: run_eval(DEV_V20, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v21 = {part: run_eval(DEV_V21, split=part, group_by="lang")[0] for part in ("tune", "test")}
    v22 = {part: run_eval(DEV_V22, split=part, group_by="lang")[0] for part in ("tune", "test")}

    head = "| set | n | precision | recall | F1 | balanced accuracy | REJECT precision (n rejected) |"
    rule = "|---|---|---|---|---|---|---|"
    rows = [
        _row(f"{name}, flagged = LOW_CONFID + REJECT", r.flagged, r.reject_only)
        for name, r in reports.items()
    ]
    rows += [
        _row(f"dev lang = {lang}", g.flagged, g.reject_only)
        for lang, g in dev.breakdowns.get("lang", {}).items()
    ]
    rows += [_row("dev v3 (tune only, tuned on)", v3.flagged, v3.reject_only)]
    rows += [
        _row(f"dev v3 lang = {lang}", g.flagged, g.reject_only)
        for lang, g in v3.breakdowns.get("lang", {}).items()
    ]
    for part, label in (("tune", "tuned on"), ("test", "held out, Chinese only")):
        rows += [_row(f"dev v4 {part} ({label})", v4[part].flagged, v4[part].reject_only)]
        rows += [
            _row(f"dev v4 {part} lang = {lang}", g.flagged, g.reject_only)
            for lang, g in v4[part].breakdowns.get("lang", {}).items()
        ]
    for part, label in (("tune", "tuned on"), ("test", "held out")):
        rows += [_row(f"dev v5 {part} ({label})", v5[part].flagged, v5[part].reject_only)]
        rows += [
            _row(f"dev v5 {part} lang = {lang}", g.flagged, g.reject_only)
            for lang, g in v5[part].breakdowns.get("lang", {}).items()
        ]
    for part, label in (("tune", "tuned on"), ("test", "held out")):
        rows += [_row(f"dev v6 {part} ({label})", v6[part].flagged, v6[part].reject_only)]
        rows += [
            _row(f"dev v6 {part} lang = {lang}", g.flagged, g.reject_only)
            for lang, g in v6[part].breakdowns.get("lang", {}).items()
        ]
    for version, reports_of in (
        ("v7", v7),
        ("v8", v8),
        ("v9", v9),
        ("v10", v10),
        ("v11", v11),
        ("v12", v12),
        ("v13", v13),
        ("v14", v14),
        ("v15", v15),
        ("v16", v16),
        ("v17", v17),
        ("v18", v18),
        ("v19", v19),
        ("v20", v20),
        ("v21", v21),
        ("v22", v22),
    ):
        tune_label = "tuned on"
        for part, label in (("tune", tune_label), ("test", "held out")):
            rows += [
                _row(
                    f"dev {version} {part} ({label})", reports_of[part].flagged, reports_of[part].reject_only
                )
            ]
            rows += [
                _row(f"dev {version} {part} lang = {lang}", g.flagged, g.reject_only)
                for lang, g in reports_of[part].breakdowns.get("lang", {}).items()
            ]
    kinds = [
        _row(f"kind = {kind}", g.flagged, g.reject_only) for kind, g in dev.breakdowns.get("kind", {}).items()
    ]
    bins = " | ".join(f"{b.low:.1f}–{b.high:.1f}" for b in dev.reliability)
    reliability = [f"| set | {bins} | score |", "|---|" + "---|" * (len(dev.reliability) + 1)]
    for name, r in reports.items():
        reliability += _reliability(name, r)
    addresses = [
        f"- {name}: {sum(r.addresses_question.not_addressing.values())} of {r.addresses_question.checked} answers "
        f"found not to address the question ({r.addresses_question.not_addressing})"
        for name, r in reports.items()
        if r.addresses_question is not None
    ] or ["- not reported by the checker yet (no `addresses_question` on the result)."]
    model = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "train_support_model.py"), "--no-write"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.strip()
    lines = [
        f"Split: `{split}` (dev set: its `split` field; HaluQA/HaluSum: `split_of`, a salted sha256 of the pair id).",
        f"Machine: {platform.machine()}, {platform.system()}, Python {platform.python_version()}; offline checker.",
        "Commands: `groundgate check-eval --input FILE --split test` for each set; "
        "`python benchmarks/eval_checker.py` writes this section.",
        "Flagged = `LOW_CONFID` or `REJECT`; figures are for the hallucinated class.",
        "`dev v3` (tests/data/check_dev_v3.jsonl, 140 pairs: paraphrases, summaries, records, QA and "
        "cross-language pairs, 84 Chinese) was written blind in session 21 and measured unseen — the "
        "checker of `93ebc9d`: balanced accuracy 0.586 (en 0.661, zh 0.536), REJECT precision 0.938 (16); "
        "`git worktree add /tmp/base 93ebc9d && PYTHONPATH=/tmp/base/src python -m groundgate.cli "
        "check-eval --input tests/data/check_dev_v3.jsonl --split all` — then tuned on; its row is a tune "
        "figure, not a held-out one.",
        "`dev v4` (tests/data/check_dev_v4.jsonl, 200 pairs, 130 Chinese, written blind in session 23; `tune` "
        "= 70 zh + 70 en, `test` = 60 zh) measured unseen with the checker of `51ec5df`: all 200 balanced "
        "accuracy 0.635 (en 0.643, zh 0.631), REJECT precision 0.857 (28); tune 0.621, test 0.667 "
        "(`git worktree add /tmp/base 51ec5df && PYTHONPATH=/tmp/base/src python -m groundgate.cli "
        "check-eval --input tests/data/check_dev_v4.jsonl --split all`). Tuned on `tune` only; its `test` "
        "row is held out.",
        "`dev v5` (tests/data/check_dev_v5.jsonl, 200 pairs, written blind in session 24: `tune` = 70 zh + 50 en, "
        "`test` = 40 zh + 40 en; a quarter of the contexts are records — JSON, key: value lines, log lines) "
        "measured unseen with the checker of `f28dcd6`: all 200 balanced accuracy 0.570 (en 0.578, zh 0.564), "
        "REJECT precision 0.789 (19); tune 0.567, test 0.575, REJECT precision on test 0.714 (7) "
        "(`git worktree add /tmp/base f28dcd6 && PYTHONPATH=/tmp/base/src python -m groundgate.cli "
        "check-eval --input tests/data/check_dev_v5.jsonl --split all`). Tuned on `tune` only; its `test` "
        "rows are held out.",
        "`dev v6` (tests/data/check_dev_v6.jsonl, 120 pairs, written blind in session 25: `tune` = 30 zh + 30 en, "
        "`test` = 30 zh + 30 en; a third of the contexts are records, a fifth of the answers in the other "
        "language) measured unseen with the checker of `441166d`: all 120 balanced accuracy 0.542 (en 0.483, "
        "zh 0.600), REJECT precision 0.600 (20); tune 0.567, test 0.517 (`git worktree add /tmp/base "
        "441166d && PYTHONPATH=/tmp/base/src python -m groundgate.cli check-eval --input "
        "tests/data/check_dev_v6.jsonl --split all`). Then tuned on `tune` only, at the end of session 25 (a "
        "cap the evidence states is not borne out by another cap; a total of three of the claim's figures is "
        "worked out): tune 0.567 -> 0.583, test unchanged; its `test` rows are held out.",
        "`dev v7` (tests/data/check_dev_v7.jsonl, 120 pairs, written blind in session 26: `tune` = 30 zh + 30 en, "
        "`test` = 30 zh + 30 en; 21 of 60 contexts are records, 15 answered in the other language, one buried "
        "defect per hallucinated answer) measured unseen with the checker of `9ae4b98` (unchanged since "
        "session 25): all 120 balanced accuracy 0.575 (en 0.583, zh 0.567), REJECT precision 0.636 (11); "
        "tune 0.550, test 0.600 (`groundgate check-eval --input tests/data/check_dev_v7.jsonl --split all` "
        "on that commit). Then tuned on `tune` only (a difference, a multiple or a year of the claim's own "
        "figures said as one is worked out; a `|` table's figures are checked against the row the claim "
        "names; an approver swap is matched across paraphrase; a held threshold retold as met at once is "
        "not shown; a conditional clause is a unit of its own): tune 0.550 -> 0.650, test unchanged.",
        "`dev v8` (tests/data/check_dev_v8.jsonl, 120 pairs, written blind in session 27: `tune` = 30 zh + 30 en, "
        "`test` = 30 zh + 30 en; 22 of 60 contexts are records, 16 answered in the other language, one buried "
        "defect per hallucinated answer of 15 types) measured unseen with the checker of `de1b132` (the end of "
        "session 26): all 120 balanced accuracy 0.508 (en 0.533, zh 0.483), REJECT precision 0.714 (14); "
        "tune 0.533, test 0.483 (`groundgate check-eval --input tests/data/check_dev_v8.jsonl --split all` on "
        "that commit).",
        "`dev v9` (tests/data/check_dev_v9.jsonl, 120 pairs, written blind in session 28 by a writer who read "
        "only v8's first three lines and tests/data/README.md: `tune` = 30 zh + 30 en, `test` = 30 zh + 30 en; 46 "
        "of 120 answers over records, 16 in the other language, each of 15 defect types once per language and "
        "split) measured unseen with the checker of `64c1fd7` (session 28, before any checker change this session): all 120 "
        "balanced accuracy 0.558 (en 0.617, zh 0.500), REJECT precision 0.706 (17); tune 0.567, test 0.550 "
        "(`groundgate check-eval --input tests/data/check_dev_v9.jsonl --split all --group-by lang`). Then "
        "tuned on `tune` only (a spelled figure no context figure has, data rates in bits per second, energy "
        "in watt-hours, `万分之` and spelled decimals, a record's unit words, a remainder of several parts, a "
        "role given to another of the record's people, a clause drawing a worked figure, an exception the "
        "context rules out, a step said done that the context awaits, a found cause, minutes without `分`): "
        "tune 0.567 -> 0.733 (REJECT precision 0.857 -> 1.000), test 0.550 unchanged.",
        "`dev v10` (tests/data/check_dev_v10.jsonl, 120 pairs, written blind late in session 28, after the v9 "
        "rules, by a writer who read only v9's first three lines and tests/data/README.md; new domains "
        "(education, healthcare administration, compliance, manufacturing, energy, travel), 22 answers per "
        "language over records, 8 per language in the other language, each defect type once per language and "
        "split) measured unseen with the checker of `b6240b3`: all 120 balanced accuracy 0.450 (en 0.433, zh "
        "0.467), REJECT precision 0.643 (14); tune 0.467, test 0.433 — below chance: on text unlike its tune "
        "sets the checker flags supported and hallucinated answers alike. Then tuned on `tune` only (energy "
        "units, `八成五`, a price times a quantity, an evening after a clock time, a possibility not ruled out "
        "retold as confirmed, a rule kept to one's own widened to all, the office a task goes to, an "
        "obligation made optional, a future retold as done): tune 0.467 -> 0.567, test 0.433 unchanged.",
        "`dev v11` (tests/data/check_dev_v11.jsonl, 120 pairs, written blind in session 29 by a writer who "
        "read only v10's first three lines and tests/data/README.md; 14 domains none of the earlier sets "
        "used (agriculture, insurance claims, transit, telecom, archives, contract clauses, logistics, municipal "
        "permits, lab protocols, leases, cloud billing, museums, pharmacy, customs), 21 of 60 contexts records, "
        "8 answers per language in the other language, each of 15 defect types once per language and split) "
        "measured unseen with the checker of `577bb1d` (session 29, after its first checker commit): all 120 "
        "balanced accuracy 0.483 (en 0.417, zh 0.550), REJECT precision 0.571 (28: 12 supported answers "
        "rejected); tune 0.533, test 0.433 (`groundgate check-eval --input tests/data/check_dev_v11.jsonl "
        "--split all --group-by lang` on that commit). Then tuned on `tune` only (a term of months ended on a "
        "date, days between dates, a remainder of two context figures, a running total, a monthly figure times "
        "months, a compound unit naming no column, a step said done that is still under way, an exact share, a "
        "ratio percent, a gap said after its figure): tune 0.533 -> 0.600 (false REJECTs 7 -> 3); test 0.433 "
        "-> 0.450, the held-out rows moved by the general rules only.",
        "`dev v12` (tests/data/check_dev_v12.jsonl, 120 pairs, written blind late in session 29 by a writer "
        "who read only v11's first three lines and tests/data/README.md; 20 domains none of the earlier sets "
        "used (release notes, API quotas, backups, Kubernetes events, CI/CD logs, security advisories, on-call "
        "handovers, SLA reports, bank fees, loans, tax rules, shop returns, memberships, ticketing, weather "
        "warnings, elections, construction, fleet maintenance, veterinary records, product specs), 24 of 60 "
        "contexts records, 8 answers per language in the other language) measured unseen with the checker of "
        "`260efb2` (after this session's checker rules): all 120 balanced accuracy 0.400 (en 0.467, zh 0.333), "
        "REJECT precision 0.471 (17); tune 0.433, test 0.367 — below chance: on these domains it flagged 52 "
        "of 60 supported answers. Then tuned on `tune` (a price per thousand times a quantity, a duration "
        "written as a clock reading, an unpadded clock time as either half of the day, a Chinese clock time "
        "with seconds, a host name before a Chinese comma, earlier sentences' figures as operands): tune "
        "0.433 -> 0.450, test 0.367 unchanged.",
        "`dev v13` (tests/data/check_dev_v13.jsonl, 120 pairs, written blind at the end of session 29 by a "
        "writer who read only v12's first three lines and tests/data/README.md; the product's own kinds of "
        "evidence — metric summaries, Alertmanager notifications, service logs, order/payment/refund records, "
        "runbooks, on-call schedules, HR policy tiers, expense and leave rules, task lists — 62 answers over "
        "records, 8 per language in the other language) measured unseen with the checker of `04a2079` (the end "
        "of session 29's checker work): all 120 balanced accuracy 0.550 (en 0.533, zh 0.567), REJECT precision "
        "0.643 (28); tune 0.567, test 0.533. Then tuned on `tune` for its false REJECTs only (a cap per night "
        "times the nights, a share of a count, a multiple said with times, an estimated average): tune 0.567 "
        "unchanged, REJECTs on tune 19 -> 15 (false ones 7 -> 6; three hallucinations that were rejected only "
        "for a correctly worked figure are now flagged LOW_CONFID); test 0.533 unchanged.",
        "`dev v14` (tests/data/check_dev_v14.jsonl, 120 pairs, written blind in session 30 by a writer who "
        "read only v13's first three lines and tests/data/README.md; 28 new domains; long LLM-style answers, "
        "4-7 sentences, that paraphrase their context heavily, the hallucinated twin differing at one spot in "
        "the middle of a long sentence; 20 of 60 contexts records, 6 answers per language in the other "
        "language) measured unseen with the checker of `3a21d65`: all 120 balanced accuracy 0.517 (en 0.533, "
        "zh 0.500), recall 0.850 but only 11 of 60 supported answers PASS, REJECT precision 0.615 (26); "
        "tune 0.517, test 0.517. Then tuned on `tune` (an added list item, an organisation swapped for "
        "another of the context, an article before a measure unit, conversions, products of the claim's "
        "shown figures): tune 0.517 -> 0.583; test 0.517 unchanged, its REJECT precision 0.600 (15) -> 0.667 (12).",
        "`dev v15` (tests/data/check_dev_v15.jsonl, 120 pairs, written blind in session 30 after its checker "
        "rules by a writer who read only v14's first three lines and tests/data/README.md; 20 new domains; "
        "contexts of 2-3 retrieved passages, only one or two relevant and the others near misses, so 24 of "
        "60 hallucinations take a fact from a near-miss passage; answers of 1-6 sentences; 16 of 60 contexts "
        "with a record; 5 pairs per language in the other language) measured unseen with the checker of "
        "`85ba9a1`: all 120 balanced accuracy 0.583 (en 0.567, zh 0.600), recall 0.817, 21 of 60 supported "
        "answers PASS, REJECT precision 0.630 (27); tune 0.550, test 0.617. Tuned on `tune` in session 31 "
        "(figures restated with a count a word implies, Chinese surface forms); its `test` half stays held out.",
        "`dev v16` (tests/data/check_dev_v16.jsonl, 120 pairs, written blind in session 31 by a writer who "
        "read only v15's first three lines and its README paragraph; 120 new domains, one per pair; 41 pairs "
        "over records, 17 with a near-miss passage; 12 pairs across languages (`lang` is the answer's); each "
        "hallucinated answer its supported twin with one substring replaced — 13 kinds, 9-10 each: changed "
        "condition, negation flip, wrong arithmetic, added clause, changed date/time, changed number, entity "
        "swap, flipped obligation, invented cause, scope widening, time order swapped, wrong conversion, wrong "
        "row) measured unseen with the checker of `78a8d0b`: all 120 balanced accuracy 0.525 (en 0.542, zh "
        "0.508), recall 0.867, 22 of 120 supported answers PASS, REJECT precision 0.573 (75); tune 0.508, "
        "test 0.542. Tuned on `tune` in session 31 (a changed figure is a contradiction only in place of a "
        "figure of the window; formulas written out; 95折; `US`).",
        "`dev v17` (tests/data/check_dev_v17.jsonl, 120 pairs, written blind in session 31 by a writer who "
        "read only v16's first three lines and the README around its paragraph; contexts are tool output of "
        "operations and business systems — 73 pairs over records (log lines, metric summaries, tables), 47 "
        "over policies and runbooks; 12 pairs across languages; 14 kinds of one-substring lies: invented "
        "cause, changed error code / identifier / time, wrong duration / count, threshold flip, changed step "
        "order, added step, flipped obligation, entity swap, wrong row, negation flip, speculation as fact) "
        "measured unseen with the checker of `dedc809`: all 120 balanced accuracy 0.550 (en 0.542, zh 0.558), "
        "recall 0.775, 39 of 120 supported answers PASS, REJECT precision 0.646 (48); tune 0.542, test 0.558. "
        "Tuned on `tune` in session 32 (record fields left empty, numbered ranges, figures worked out from "
        "the question, counts of records, numbered steps out of order).",
        "`dev v18` (tests/data/check_dev_v18.jsonl, 120 pairs, written blind in session 31 by a writer who "
        "read only v17's first three lines and the README from v17's paragraph on; everyday question answering "
        "over web-like passages — encyclopaedia paragraphs, product pages and reviews, how-to guides, local "
        "news, FAQ pages — answered as a chat assistant answers; 12 pairs across languages; 11 kinds of "
        "one-substring lies: wrong person / place / year / superlative, reversed relation, merged passages, "
        "invented detail, certainty added, quantity changed, negation flip, changed condition) measured unseen "
        "with the checker of `5133bae`: all 120 balanced accuracy 0.587 (en 0.600, zh 0.575), recall 0.567, "
        "73 of 120 supported answers PASS, REJECT precision 0.792 (24); tune 0.567, test 0.608. Tuned on "
        "`tune` in session 32 (passives turned round, hedged plans stated flatly, superlatives).",
        "`dev v19` (tests/data/check_dev_v19.jsonl, 120 pairs, written blind in session 32 by a writer who "
        "read only v18's first three lines and the README's v17/v18 paragraphs; long compound answers over "
        "customer-support and product documentation and over records returned by tools — 65 pairs over JSON "
        "or key: value records; 19 pairs across languages; 26 with a near-miss passage; 12 kinds of "
        "one-substring lies placed past the first clause: entity swap, changed figure / unit / condition / "
        "date, scope widening, flipped obligation, negation flip, invented clause, wrong field, reversed "
        "relation, speculation as fact) measured unseen with the checker of `d9714ca`: all 120 balanced "
        "accuracy 0.621 (en 0.567, zh 0.675), recall 0.600, 77 of 120 supported answers PASS, REJECT "
        "precision 0.875 (24); tune 0.600, test 0.642. Tuned on "
        "`tune` in session 32 (exceptions named to a rule, suspicions stated as settled, `only` widened).",
        "`dev v20` (tests/data/check_dev_v20.jsonl, 120 pairs, written blind late in session 32 by a writer "
        "who read only v19's first three lines and the README's v17–v19 paragraphs; answers that summarise "
        "two to four short sources at once — meeting notes, email threads, chat, changelogs, calendars, HR "
        "and finance records — 105 drawing on two or more passages, 16 across languages, 25 with a near-miss "
        "passage; 12 kinds of one-substring lies: wrong speaker, superseded value, wrong date, changed "
        "figure, role swap, negation flip, flipped obligation, invented reason, merged records, scope "
        "widening, changed condition, certainty added) measured unseen with the checker of `ecb5be4`: all "
        "120 balanced accuracy 0.596 (en 0.558, zh 0.633), recall 0.675, 62 of 120 supported answers PASS, "
        "REJECT precision 0.941 (17); tune 0.567, test 0.625. Tuned on "
        "`tune` in session 32 (the same rules; 明早 hours, obligations left to the reader).",
        "`dev v21` (tests/data/check_dev_v21.jsonl, 120 pairs, written blind in session 33 by a writer who "
        "read only v20's first three lines and its README paragraph; summaries and explanations of ONE long "
        "document — news, reports, notices, announcements, postmortems, abstracts, emails — each context a "
        "single passage of 185–260 English words or 300–370 Chinese characters full of figures, dates, names "
        "and causes; supported answers heavily paraphrased, 110 with a figure or date worked out exactly; 16 "
        "across languages; 12 kinds of one-substring lies: changed figure, wrong date, entity swap, wrong "
        "attribution, invented detail, invented cause, reversed comparison, wrong arithmetic, certainty added, "
        "negation flip, merged events, scope change) measured unseen with the checker of `240717e` (the end "
        "of session 32): all 120 balanced accuracy 0.517 (en 0.525, zh 0.508), recall 0.833, 24 of 120 "
        "supported answers PASS, REJECT precision 0.560 (50: 22 supported answers rejected); tune 0.517, "
        "test 0.517 (`git worktree add /tmp/base 240717e && PYTHONPATH=/tmp/base/src python -m groundgate.cli "
        "check-eval --input tests/data/check_dev_v21.jsonl --split all --group-by lang`). Tuned on `tune` in "
        "session 33 (differences said with a comparative, speakers, obligations added, talks retold as "
        "agreements).",
        "`dev v22` (tests/data/check_dev_v22.jsonl, 120 pairs, written blind in session 34 by a writer who "
        "read only v21's first three lines and the README's v20–v21 paragraphs; data-to-text over structured "
        "records — business listings with hours per weekday, boolean and enum attributes and dated reviews, "
        "products, bookings, events, transport, orders, incidents, plans, staff records — as JSON objects and "
        "arrays, `key: value` blocks, tables and logs; answers that turn fields into prose, about 70 with a "
        "worked figure; 16 across languages; 12 kinds of one-substring lies: wrong field value, boolean flip, "
        "attribute invented, record swap, wrong day or time, miscomputed, review misattributed, enum misread, "
        "superlative wrong, unit or currency, invented cause or policy, scope overreach) measured unseen with "
        "the checker of `5c1ede3`: all 120 balanced accuracy 0.546 (en 0.550, zh 0.542), recall 0.883, 25 of 120 "
        "supported answers PASS, REJECT precision 0.717 (46: 13 supported answers rejected); tune 0.542, test "
        "0.550 (`git worktree add /tmp/base 5c1ede3 && PYTHONPATH=/tmp/base/src "
        "python -m groundgate.cli check-eval --input tests/data/check_dev_v22.jsonl --split all --group-by "
        "lang`).",
        "",
        head,
        rule,
        *rows,
        "",
        "Dev set by kind:",
        "",
        head,
        rule,
        *kinds,
        "",
        "Reliability (observed hallucination rate, and count, per answer support-score bin):",
        "",
        *reliability,
        "",
        "`addresses_question` findings:",
        "",
        *addresses,
        "",
        "Learned support model (`groundgate.verify.support_model`, standalone, answer = its weakest sentence,"
        " threshold chosen on `tune`; `python benchmarks/train_support_model.py --no-write`):",
        "",
        "```",
        model,
        "```",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("check-eval-offline", body)


if __name__ == "__main__":
    main()
