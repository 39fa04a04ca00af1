"""check-eval figures of the offline checker on the hand-written dev set, into docs/benchmarks.md.

    python benchmarks/eval_checker.py [--input tests/data/check_dev.jsonl] [--no-write]

The same figures as `groundgate check-eval --input tests/data/check_dev.jsonl`, plus recall per
hallucination type and per domain.
"""

from __future__ import annotations

import argparse
import io
import json
from collections import Counter, defaultdict
from pathlib import Path

from _report import write_section
from groundgate.apps.check import run_eval
from groundgate.evaluation.check_eval import EvalFigures

ROOT = Path(__file__).resolve().parent.parent


def _row(name: str, f: EvalFigures) -> str:
    return f"| {name} | {f.count} | {f.precision:.3f} | {f.recall:.3f} | {f.f1:.3f} | {f.balanced_accuracy:.3f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--input", type=Path, default=ROOT / "tests" / "data" / "check_dev.jsonl")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    predictions = io.StringIO()
    report, summary = run_eval(args.input, predictions=predictions)
    domain_report, _ = run_eval(args.input, group_by="domain")
    items = {
        str(json.loads(line)["id"]): json.loads(line)
        for line in args.input.read_text("utf-8").splitlines()
        if line
    }
    caught: dict[str, Counter[str]] = defaultdict(Counter)
    for line in predictions.getvalue().splitlines():
        pred = json.loads(line)
        item = items[str(pred["id"])]
        if item["label"] == "hallucinated":
            caught[item["hallucination_type"]][pred["verdict"]] += 1

    lines = [
        f"Data: `{args.input.relative_to(ROOT)}` ({summary.checked} labelled pairs, {summary.bad_count} bad lines).",
        "Flagged = `LOW_CONFID` or `REJECT`; figures are for the hallucinated class.",
        "",
        "| set | n | precision | recall | F1 | balanced accuracy |",
        "|---|---|---|---|---|---|",
        _row("all, LOW_CONFID + REJECT", report.flagged),
        _row("all, REJECT only", report.reject_only),
        *(_row(f"lang = {name}", f) for name, f in report.by_group.items()),
        *(_row(f"domain = {name}", f) for name, f in domain_report.by_group.items()),
        "",
        "Confusion (label × verdict):",
        "",
        "| label | PASS | LOW_CONFID | REJECT |",
        "|---|---|---|---|",
        *(
            f"| {label} | {row.get('PASS', 0)} | {row.get('LOW_CONFID', 0)} | {row.get('REJECT', 0)} |"
            for label, row in report.confusion_table.items()
        ),
        "",
        "Hallucinated answers caught, by kind of hallucination:",
        "",
        "| kind | n | caught (LOW_CONFID + REJECT) | REJECT |",
        "|---|---|---|---|",
        *(
            f"| {kind} | {sum(c.values())} | {c['LOW_CONFID'] + c['REJECT']} | {c['REJECT']} |"
            for kind, c in sorted(caught.items())
        ),
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("check-eval-offline", body)


if __name__ == "__main__":
    main()
