"""Generate the logs, metrics and orders of the bundled demo workspace, deterministically.

    python -m groundgate.demo._generate_workspace           # rewrite logs/, metrics/, orders.jsonl, then validate
    python -m groundgate.demo._generate_workspace --check   # validate only, write nothing

The documents (`workspace/docs/**/*.md`), the retrieval set (`questions.jsonl`) and the showcase
(`showcase.jsonl`) are hand-written files; this script only produces the machine data and checks that
everything fits together. Output is byte-identical on every run (one seeded `random.Random`, fixed
iteration order, no wall clock).

The story, 2026-03-14 13:00-16:00 UTC at the fictional payment platform Lanting Pay:

* 14:00 tenant acme's promotion PIDAY-314 starts (payment traffic about 2.5x) and the daily
  `recon-daily` report job starts scanning the payment-db primary (slow queries hold connections).
* 14:05 the payment-db connection pool (max_size 100) is pinned at 100/100, waiters grow; the gateway
  returns ERR_TIMEOUT (3000 ms budget), peaking at 18.4 % at 14:18; the wait queue hits its 300
  limit 14:17-14:20 and ERR_POOL_EXHAUSTED appears. Bank channel probes stay healthy throughout.
* 14:22 the DBA kills the report queries (some relief, still saturated).
* 14:30 emergency change CHG-20260314-007: `payment-db.pool.max_size 100 -> 200`; the queue drains by
  14:32, error rates return to baseline.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from groundgate.demo._generate_base import (
    MAX_WORKSPACE_BYTES,
    MINUTES,
    SEED,
    SERVICES,
    WORKSPACE,
    LogBook,
    Series,
    build_metrics,
    ts_metric,
)
from groundgate.demo._generate_events import (
    emit_background,
    emit_story,
)
from groundgate.demo._generate_orders import (
    emit_order,
    emit_queries,
    emit_refunds,
    plan_orders,
)

# --------------------------------------------------------------------------- writing


def _write_lines(path: Path, lines: Iterable[str]) -> int:
    text = "".join(line + "\n" for line in lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return text.count("\n")


def generate(workspace: Path = WORKSPACE) -> dict[str, int]:
    rng = random.Random(SEED)
    metrics = build_metrics(rng)
    book = LogBook(rng)
    orders = plan_orders(rng, metrics, book)
    for order in orders:
        emit_order(rng, book, metrics, order)
    emit_refunds(rng, book, metrics, orders)
    emit_queries(rng, book, orders)
    emit_background(rng, book, metrics)
    emit_story(rng, book, metrics)

    counts: dict[str, int] = {}
    for stale in (*(workspace / "logs").glob("*.jsonl"), *(workspace / "metrics").glob("*.jsonl")):
        stale.unlink()
    for service in SERVICES:
        mine = sorted(
            (line for line in book.lines if line.service == service), key=lambda line: (line.ms, line.seq)
        )
        counts[f"logs/{service}.jsonl"] = _write_lines(
            workspace / "logs" / f"{service}.jsonl", (line.to_json() for line in mine)
        )
    by_name: dict[str, list[Series]] = {}
    for series in metrics.series():
        by_name.setdefault(series.name, []).append(series)
    for name, group in by_name.items():
        rows = [
            json.dumps(
                {"name": name, "labels": s.labels, "ts": ts_metric(i), "value": s.values[i]},
                ensure_ascii=False,
            )
            for i in range(MINUTES)
            for s in group
        ]
        counts[f"metrics/{name}.jsonl"] = _write_lines(workspace / "metrics" / f"{name}.jsonl", rows)
    counts["orders.jsonl"] = _write_lines(workspace / "orders.jsonl", (o.to_json() for o in orders))
    return counts


# --------------------------------------------------------------------------- validation

DOC_KEYS: Final = (
    "title",
    "doc_id",
    "authority",
    "kind",
    "version",
    "effective_from",
    "effective_to",
    "scope",
    "tenant",
)
AUTHORITIES: Final = frozenset({"SRE", "Payments-Eng", "DBA", "Platform", "HR-Policy", "Finance", "Security"})
KINDS: Final = frozenset({"runbook", "error_codes", "architecture", "postmortem", "policy", "faq", "api"})
SCOPES: Final = frozenset({"payment", "order", "platform", "hr", "finance"})
OUTCOMES: Final = frozenset({"NORMAL", "LOW_CONFID_WITH_DISCLAIMER", "DEGRADED"})
_HEADING = re.compile(r"^(#{1,6}) +(.+?) *$", re.MULTILINE)
_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TRACE = re.compile(r"\b[0-9a-f]{16}\b")
_ORDER = re.compile(r"\bORD-\d{8}-\d{5}\b")
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass
class Doc:
    path: Path
    meta: dict[str, str]
    headings: list[str]
    sections: list[tuple[str, str]]
    lang: str


def read_doc(path: Path) -> Doc:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ValueError(f"{path}: no front matter")
    head, _, body = text[4:].partition("\n---\n")
    meta: dict[str, str] = {}
    for line in head.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"{path}: bad front matter line {line!r}")
        meta[key.strip()] = value.strip().strip('"')
    matches = list(_HEADING.finditer(body))
    sections = [
        (m.group(2), body[m.end() : matches[n + 1].start() if n + 1 < len(matches) else len(body)].strip())
        for n, m in enumerate(matches)
    ]
    cjk = len(_CJK.findall(body))
    return Doc(path, meta, [m.group(2) for m in matches], sections, "zh" if cjk > len(body) * 0.15 else "en")


def _read_jsonl(path: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from exc
        if not isinstance(row, dict):
            raise ValueError(f"{path}:{number}: not an object")
        rows.append(row)
    return rows


def validate(workspace: Path = WORKSPACE) -> dict[str, int]:
    """Check that docs, data, questions and showcase fit together; raise ValueError listing every problem."""
    problems: list[str] = []
    docs = [read_doc(p) for p in sorted((workspace / "docs").rglob("*.md"))]
    by_id: dict[str, Doc] = {}
    for doc in docs:
        where = doc.path.relative_to(workspace)
        missing = [key for key in DOC_KEYS if key not in doc.meta]
        if missing:
            problems.append(f"{where}: front matter lacks {missing}")
            continue
        m = doc.meta
        if m["doc_id"] in by_id:
            problems.append(f"{where}: duplicate doc_id {m['doc_id']}")
        by_id[m["doc_id"]] = doc
        if not _KEBAB.match(m["doc_id"]):
            problems.append(f"{where}: doc_id not kebab-case")
        if m["authority"] not in AUTHORITIES or m["kind"] not in KINDS or m["scope"] not in SCOPES:
            problems.append(f"{where}: authority/kind/scope outside the allowed sets")
        if not m["title"] or not m["version"] or not _DATE.match(m["effective_from"]):
            problems.append(f"{where}: title, version or effective_from missing")
        if m["effective_to"] and not _DATE.match(m["effective_to"]):
            problems.append(f"{where}: effective_to is not a date")
        for heading, body in doc.sections:
            if not 150 <= len(body) <= 900:
                problems.append(f"{where}: section {heading!r} has {len(body)} characters")
    if len(docs) < 18:
        problems.append(f"only {len(docs)} documents")

    logs = {p.name: _read_jsonl(p) for p in sorted((workspace / "logs").glob("*.jsonl"))}
    log_rows = [row for rows in logs.values() for row in rows]
    traces = {str(row["trace_id"]) for row in log_rows}
    for row in log_rows:
        if set(row) != {"ts", "service", "level", "trace_id", "tenant", "message"}:
            problems.append(f"log line with fields {sorted(row)}")
            break
    metrics = {p.name: _read_jsonl(p) for p in sorted((workspace / "metrics").glob("*.jsonl"))}
    orders = _read_jsonl(workspace / "orders.jsonl")
    order_ids = {str(o["order_id"]) for o in orders}
    for order in orders:
        if order["trace_id"] not in traces:
            problems.append(f"order {order['order_id']}: trace id not in the logs")
        if order["status"] == "FAILED" and not order["failure_code"]:
            problems.append(f"order {order['order_id']}: FAILED without failure_code")

    questions = _read_jsonl(workspace / "questions.jsonl")
    showcase = _read_jsonl(workspace / "showcase.jsonl")
    seen: set[str] = set()
    for q in questions:
        qid = str(q["id"])
        if qid in seen:
            problems.append(f"question {qid}: duplicate id")
        seen.add(qid)
        if q.get("lang") not in ("zh", "en") or not q.get("question"):
            problems.append(f"question {qid}: bad lang or empty question")
        relevant = q.get("relevant_doc_ids")
        headings = q.get("relevant_headings")
        if not isinstance(relevant, list) or not relevant or not isinstance(headings, list):
            problems.append(f"question {qid}: relevant_doc_ids/relevant_headings missing")
            continue
        for doc_id in relevant:
            if doc_id not in by_id:
                problems.append(f"question {qid}: unknown doc_id {doc_id}")
        for heading in headings:
            if not any(heading in by_id[d].headings for d in relevant if d in by_id):
                problems.append(f"question {qid}: heading {heading!r} is in none of {relevant}")
    for s in showcase:
        if s.get("expect") not in OUTCOMES or not s.get("question") or not s.get("why"):
            problems.append(f"showcase {s.get('id')}: bad expect/question/why")
    for row in (*questions, *showcase):
        text = json.dumps(row, ensure_ascii=False)
        problems += [
            f"{row['id']}: trace id {t} not in the logs" for t in _TRACE.findall(text) if t not in traces
        ]
        problems += [
            f"{row['id']}: order {o} not in orders.jsonl" for o in _ORDER.findall(text) if o not in order_ids
        ]

    size = sum(p.stat().st_size for p in workspace.rglob("*") if p.is_file())
    if size > MAX_WORKSPACE_BYTES:
        problems.append(f"workspace is {size} bytes")
    if problems:
        raise ValueError("demo workspace is inconsistent:\n  " + "\n  ".join(problems))
    return {
        "documents": len(docs),
        "documents_zh": sum(d.lang == "zh" for d in docs),
        "documents_en": sum(d.lang == "en" for d in docs),
        "sections": sum(len(d.sections) for d in docs),
        "log_lines": len(log_rows),
        "trace_ids": len(traces),
        "metric_points": sum(len(rows) for rows in metrics.values()),
        "orders": len(orders),
        "questions": len(questions),
        "questions_zh": sum(q.get("lang") == "zh" for q in questions),
        "showcase": len(showcase),
        "bytes": size,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--check" not in args:
        for name, count in generate().items():
            print(f"wrote {name}: {count} lines")
    try:
        summary = validate()
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(" ".join(f"{key}={value}" for key, value in summary.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
