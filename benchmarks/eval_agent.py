"""The business agent's end-to-end questions over the HR demo, into docs/benchmarks.md.

Every question runs through the agent as `groundgate agent eval` runs it: the HR demo workspace
(Qdrant Edge index, policy documents with governance metadata) and the per-user task table on a real
SQLite store in a fresh data directory, the offline planner, no model. Reported per set: decision
accuracy, wrong `ANSWERED` rate (target 0), slot recall and precision.

Six sets: `eval_questions.yaml` (108 questions; the rules were adjusted until it passed, so it is a
regression suite, not a recall figure) and `eval_holdout.yaml` (20 questions written before the rules
were tuned; three general fixes followed a first look at it, so it is only partly blind) and
`eval_holdout_blind.yaml` (40 questions written by someone who never ran the agent, after its last
change; nobody has tuned on it), and `eval_tune_blind.yaml` (60 questions, also written blind, but the
rules were then tuned on it: a generalisation target, not a recall figure; the blind 40 stay the
honest measure), and `eval_tune_blind2.yaml` (40 more blind-written questions, heavy on traps —
unstated close topics, expired or other-project documents only, boundaries, the conflicting meal
allowance, missing parameters, authorization attempts; session 18 tuned on it until it passed, but the
held-out 20 fell 70 → 60 % and the blind 40 did not move, so that change was reverted: it is measured
as is, a second blind figure), and `eval_tune_blind3.yaml` (40 blind-written entries, 42 questions with
the two follow-ups, session 22: scored once before any change — that figure is in docs/benchmarks.md
— then tuned on, like the first tune set), and `eval_tune_blind4.yaml` (43 more blind-written questions,
session 23, scored once before any change and then tuned on the same way), and `eval_tune_blind5.yaml` (40 more,
session 24, the same way), `eval_tune_blind6.yaml` (40 more, session 25, the same way), `eval_tune_blind7.yaml`
(40 more, session 26, the same way) `eval_tune_blind8.yaml` and `eval_tune_blind9.yaml` (40 more each, session 27, the same way), and
`eval_tune_blind10.yaml` (40 more, end of session 27, measured unseen, tuned on in session 28)
and `eval_tune_blind11.yaml` (40 more, session 28, measured unseen before any change, then tuned on),
and `eval_tune_blind12.yaml` (40 more, written after session 28's first rules, measured unseen, then tuned on),
and `eval_tune_blind13.yaml` (40 more, session 29, measured unseen, then tuned on),
and `eval_tune_blind14.yaml` (40 more, written after the blind-13 rules, measured unseen — 50.0 %, 3 wrong
ANSWERED, once `never` lists were read — then tuned on), and `eval_tune_blind15.yaml` (40 more, written at the end of
session 29, measured unseen — 42.5 %, 1 wrong ANSWERED — then tuned on), and `eval_tune_blind16.yaml` (40 more,
session 30, measured unseen — 62.5 %, 1 wrong ANSWERED — then tuned on), and `eval_tune_blind17.yaml` (40 more,
session 30, written after the blind-16 rules, measured unseen — 47.5 %, 5 wrong ANSWERED — then tuned on), and
`eval_tune_blind18.yaml` (40 more, session 30, written after the blind-17 rules, measured unseen — 60.0 %, 3 wrong
ANSWERED — then tuned on), and `eval_tune_blind19.yaml` (40 more, end of session 30, written after the blind-18 rules,
measured unseen — 62.5 %, 1 wrong ANSWERED — then tuned on), and `eval_tune_blind20.yaml` (40 more, session 31, a
manager's view, wrong premises, shorthand and rambling messages; measured unseen — 60.0 %, 4 wrong ANSWERED — then
tuned on), and `eval_tune_blind21.yaml` (40 more, session 31, an HR
partner's and a finance reviewer's view, numbers in words, traditional characters, sessions that change one
condition; measured unseen — 55.0 %, 0 wrong ANSWERED — then tuned on), and `eval_tune_blind22.yaml` (40 more,
session 31, a new employee's everyday words, broken rules, old versions and forum rumours quoted as fact, questions
the documents do not answer, sessions asking why and where it is written; measured unseen — 35.0 %, 4 wrong
ANSWERED — then tuned on), and `eval_tune_blind23.yaml` (40 more, late in session 31, the west project and
other users, a task's due date against a policy deadline, typos and homophones, lists, versions, sessions switching
language; measured unseen — 75.0 %, 3 wrong ANSWERED — then tuned on), and `eval_tune_blind24.yaml` (40 more, end of
session 31, phone-typed messages, amounts with arithmetic, comparisons of two things, off-topic asks, sessions that
correct an earlier turn; measured unseen — 47.5 %, 5 wrong ANSWERED — then tuned on), and `eval_tune_blind25.yaml`
(40 more, session 32, a line manager and an HR business partner asking on behalf of others and formally, several
conditions at once, wrong figures quoted to confirm, other users' tasks, sessions referring back; measured unseen — 65.0 %, 3 wrong ANSWERED — then tuned on), and `eval_tune_blind26.yaml`
(40 more, late in session 32, an employee planning their own week: dates relative to the day, tasks with the
policy behind them, trips across two cities or months, sessions that narrow or switch; measured unseen — 47.5 %,
12 wrong ANSWERED, 8 of them task lists keyed on the task id the answers did not show — then tuned on), and
`eval_tune_blind27.yaml` (40 more, session 33, colleagues typing in a chat window: slang and abbreviations —
报账, 年休/AL/PTO, 帝都/魔都, 两千五/1k2 — no punctuation, a rule and a task on one line, sessions that correct
themselves; measured unseen — 40.0 %, 5 wrong ANSWERED — then tuned on), and `eval_tune_blind28.yaml` (40 more,
session 34, an approver or finance reviewer checking colleagues' concrete cases against the rules — amounts
over a limit and by how much, deadlines from a return date, materials still missing, the version in force
for an earlier month, wrong premises to correct — and their own approval tasks; measured unseen — 42.5 %, 4 wrong ANSWERED — then tuned on), and `eval_tune_blind29.yaml` (40 more, late in session 34, an HR assistant relaying
forwarded messages — questions quoted from others, several in one message, dates and amounts in mixed forms
(4/20, 20号, 一千二, 1.5k), someone else's eligibility with a fact missing, sessions that refer back; measured
unseen — 55.0 %, 4 wrong ANSWERED — then tuned on).

    python benchmarks/eval_agent.py [--no-write]
"""

from __future__ import annotations

import argparse
import tempfile
from importlib.resources import files
from pathlib import Path

from _report import write_section
from groundgate.agent.tasks_store import TaskStore
from groundgate.demo.hr.evaluation import EvalReport, evaluate, load_questions
from groundgate.demo.hr.workspace import open_hr_workspace
from groundgate.settings import load_settings
from groundgate.wiring import open_configured_store

SETS = {
    "questions (regression suite)": "eval_questions.yaml",
    "held-out": "eval_holdout.yaml",
    "blind held-out": "eval_holdout_blind.yaml",
    "tune (blind-written, tuned on)": "eval_tune_blind.yaml",
    "blind 2 (tuning on it reverted)": "eval_tune_blind2.yaml",
    "tune 3 (blind-written, tuned on)": "eval_tune_blind3.yaml",
    "tune 4 (blind-written, tuned on)": "eval_tune_blind4.yaml",
    "tune 5 (blind-written, tuned on)": "eval_tune_blind5.yaml",
    "tune 6 (blind-written, tuned on)": "eval_tune_blind6.yaml",
    "tune 7 (blind-written, tuned on)": "eval_tune_blind7.yaml",
    "tune 8 (blind-written, tuned on)": "eval_tune_blind8.yaml",
    "tune 9 (blind-written, tuned on)": "eval_tune_blind9.yaml",
    "tune 10 (unseen 70.0 %, then tuned on)": "eval_tune_blind10.yaml",
    "tune 11 (unseen 52.5 %, then tuned on)": "eval_tune_blind11.yaml",
    "tune 12 (unseen 70.0 %, then tuned on)": "eval_tune_blind12.yaml",
    "tune 13 (unseen 52.5 %, then tuned on)": "eval_tune_blind13.yaml",
    "tune 14 (unseen 50.0 %, then tuned on)": "eval_tune_blind14.yaml",
    "tune 15 (unseen 42.5 %, then tuned on)": "eval_tune_blind15.yaml",
    "tune 16 (unseen 62.5 %, then tuned on)": "eval_tune_blind16.yaml",
    "tune 17 (unseen 47.5 %, then tuned on)": "eval_tune_blind17.yaml",
    "tune 18 (unseen 60.0 %, then tuned on)": "eval_tune_blind18.yaml",
    "tune 19 (unseen 62.5 %, then tuned on)": "eval_tune_blind19.yaml",
    "tune 20 (unseen 60.0 %, then tuned on)": "eval_tune_blind20.yaml",
    "tune 21 (unseen 55.0 %, then tuned on)": "eval_tune_blind21.yaml",
    "tune 22 (unseen 35.0 %, then tuned on)": "eval_tune_blind22.yaml",
    "tune 23 (unseen 75.0 %, then tuned on)": "eval_tune_blind23.yaml",
    "tune 24 (unseen 47.5 %, then tuned on)": "eval_tune_blind24.yaml",
    "tune 25 (unseen 65.0 %, then tuned on)": "eval_tune_blind25.yaml",
    "tune 26 (unseen 47.5 %, then tuned on)": "eval_tune_blind26.yaml",
    "tune 27 (unseen 40.0 %, then tuned on)": "eval_tune_blind27.yaml",
    "tune 28 (unseen 42.5 %, then tuned on)": "eval_tune_blind28.yaml",
    "tune 29 (unseen 55.0 %, then tuned on)": "eval_tune_blind29.yaml",
}


def _run(name: str, data_dir: Path) -> EvalReport:
    items = load_questions(files("groundgate.demo.hr").joinpath(name).read_text("utf-8"))
    settings = load_settings(data_dir=data_dir)
    store = open_configured_store(settings, recover=False)
    try:
        with open_hr_workspace(settings.data_dir, TaskStore(store)) as hr:
            return evaluate(hr.runtime, items)
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--only", help="run only the set whose file name contains this (implies --no-write)")
    parser.add_argument("--verbose", action="store_true", help="print every question's decision")
    args = parser.parse_args()
    rows = []
    misses: list[str] = []
    for label, name in SETS.items():
        if args.only and args.only not in name:
            continue
        with tempfile.TemporaryDirectory(prefix="gg-agent-eval-") as tmp:
            report = _run(name, Path(tmp))
        s = report.summary()
        if args.verbose and not name.startswith("eval_holdout"):
            for o in report.outcomes:
                mark = "ok " if o.correct else "MISS"
                print(f"{mark} {o.result.status.value:12} {o.item.question} {'; '.join(o.problems)}")
        rows.append(
            f"| {label} (`{name}`) | {s['questions']} | {s['decisionAccuracy']:.1%} | "
            f"**{s['wrongAnswered']}** ({s['wrongAnsweredRate']:.1%}) | {s['slotRecall']:.1%} | "
            f"{s['slotPrecision']:.1%} |"
        )
        if name.startswith("eval_holdout"):
            # Held-out questions stay out of the report (and of whoever tunes from it): counts only.
            if s["misses"]:
                misses.append(f"- {label}: {len(s['misses'])} misses (held out: questions not listed)")
            continue
        misses += [f"- {label}: “{m['question']}” — {'; '.join(m['problems'])}" for m in s["misses"]]
    body = "\n".join(
        [
            "Offline (no model), HR demo on Qdrant Edge and SQLite, tenant of the HR demo.",
            "",
            "| set | questions | decision accuracy | wrong ANSWERED | slot recall | slot precision |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            *(["Misses:", "", *misses] if misses else ["No misses."]),
        ]
    )
    print(body)
    if not args.no_write and not args.only:
        write_section("agent-eval", body)


if __name__ == "__main__":
    main()
