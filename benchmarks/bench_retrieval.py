"""Knowledge retrieval: ingestion throughput, filtered query latency, Recall@5 and MRR.

Corpus: the demo documents (`src/groundgate/demo/workspace/docs`) plus a deterministic synthetic
corpus (Chinese and English ops/HR runbooks, policies, FAQs and error-code tables, with identifiers,
tenants and superseded versions) up to 20,000 chunks. Questions: the labelled set
`src/groundgate/demo/workspace/questions.jsonl` (`id, lang, question, relevant_doc_ids,
relevant_headings`, optional `tenant` and `as_of`). Metrics are document-level: a hit counts when
its `doc_id` is relevant.

- Recall@5: share of a question's relevant documents among the documents of the top 5 hits.
- Hit@5: share of questions with at least one relevant document in the top 5.
- MRR@10: mean reciprocal rank of the first relevant hit in the top 10 (0 when none).

Runs on the embedded backend (Qdrant Edge), then the server adapter through `qdrant-client`'s
local mode on a smaller corpus (local mode is a pure-Python stand-in, not a server: its figures
show the adapter works, not how a Qdrant server performs).

    python benchmarks/bench_retrieval.py [--chunks 20000] [--server-chunks 2000] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from _report import DOC, write_section
from groundgate.knowledge import EdgeKnowledgeIndex, IngestReport, SearchFilter, ingest_path, parse_document
from groundgate.knowledge.index import QdrantKnowledgeIndex, governance_filter
from groundgate.knowledge.server import ServerKnowledgeIndex

ROOT = Path(__file__).resolve().parent.parent
DEMO_DOCS = ROOT / "src" / "groundgate" / "demo" / "workspace" / "docs"
QUESTIONS = ROOT / "src" / "groundgate" / "demo" / "workspace" / "questions.jsonl"
DEFAULT_AS_OF = date(2026, 3, 14)
DEFAULT_TENANT = "demo"
INTRO = """
## Knowledge retrieval: ingestion, latency, Recall@5 and MRR

`lookup_knowledge` over the Qdrant Edge shard (the default deployment): L0 exact identifiers and
titles, then L1 BM25 (Qdrant's multilingual tokenizer, IDF in the engine), governance filters inside
the engine. No dense vectors (no embedding endpoint configured).
"""

# --------------------------------------------------------------------------- synthetic corpus

_SERVICES = [
    "payment-gateway",
    "order-service",
    "risk-service",
    "notification-service",
    "settlement-batch",
    "ledger-service",
    "inventory-api",
    "auth-service",
    "search-api",
    "coupon-service",
    "billing-worker",
    "report-exporter",
]
_TEAMS = ["SRE", "Payments-Eng", "Platform", "DBA", "Security", "HR", "Finance", "Data-Eng", "Support"]
_KINDS = ["runbook", "policy", "manual", "faq", "architecture", "error_codes", "postmortem", "api"]
_SCOPES = ["payment", "order", "platform", "finance", "hr", "logistics", "marketing", "data"]
_CITIES = ["北京", "上海", "广州", "深圳", "成都", "杭州", "武汉", "西安"]
_EN_CITIES = ["Singapore", "Frankfurt", "London", "Tokyo", "Sydney", "Toronto"]
_ZH_TOPICS = [
    "连接池",
    "缓存",
    "消息队列",
    "限流",
    "熔断",
    "证书",
    "日志采集",
    "备份",
    "发布",
    "灰度",
    "对账",
    "结算",
    "退款",
    "报销",
    "年假",
    "加班",
    "采购",
    "门禁",
]
_EN_TOPICS = [
    "connection pool",
    "cache eviction",
    "queue backlog",
    "rate limiting",
    "circuit breaker",
    "certificate renewal",
    "log shipping",
    "backup restore",
    "canary release",
    "reconciliation",
    "settlement",
    "refund",
    "expense claims",
    "annual leave",
    "overtime",
    "procurement",
    "badge access",
]

_ZH_SENTENCES = [
    "{svc} 的 {topic} 使用率持续高于 {pct}% 时，会触发 {alert} 告警，值班人员需要在 {n} 分钟内响应。",
    "处理步骤：先在监控大盘确认 {svc} 的错误率，再检查 {topic} 配置项 `{key}`，必要时扩容到 {size} 个实例。",
    "错误码 {code} 表示 {svc} 在 {n} 秒内没有收到下游响应，通常与 {topic} 有关，可以重试一次。",
    "{team} 团队负责 {topic} 的日常维护，变更需要在变更平台登记，并经过另一名工程师复核。",
    "调用 `{method} {path}` 时如果返回 HTTP {status}，请查看响应体中的 error_code 字段并按本手册处理。",
    "{city}机房的 {svc} 集群每周二 22:00 进行例行维护，维护期间 {topic} 相关功能可能短暂不可用。",
    "员工申请{topic}相关事项时，需要提前 {n} 个工作日在系统中提交，并由直属主管审批。",
    "单笔金额超过 {amount} 元的{topic}申请需要财务负责人复核，审批时限为 {n} 个工作日。",
    "如果 {code} 在 {n} 分钟内出现超过 {size} 次，应升级为 P{prio} 事件并通知 {team} 值班。",
    "{topic}的配置默认值为 {size}，调整上限前需要评估对 {svc} 下游数据库的压力。",
    "历史上 {svc} 曾因 {topic} 配置错误导致故障，复盘结论是增加发布前的自动化校验。",
    "本规定自发布之日起执行，解释权归 {team} 团队所有，如有疑问请联系 {team} 值班邮箱。",
]
_EN_SENTENCES = [
    "When {topic} utilisation on {svc} stays above {pct}% the {alert} alert fires and on-call must respond within {n} minutes.",
    "Steps: check the {svc} error-rate dashboard first, then the `{key}` setting, and scale out to {size} replicas if needed.",
    "Error code {code} means {svc} got no downstream answer within {n} seconds; it is usually a {topic} problem and may be retried once.",
    "The {team} team owns {topic}; every change is registered on the change platform and reviewed by a second engineer.",
    "If `{method} {path}` answers HTTP {status}, read the error_code field of the response body and follow this guide.",
    "The {svc} cluster in {encity} has a maintenance window every Tuesday at 22:00 UTC, during which {topic} may be briefly unavailable.",
    "Employees request {topic} at least {n} working days in advance in the HR system; their line manager approves.",
    "Requests above {amount} USD for {topic} need a finance lead's review, answered within {n} working days.",
    "If {code} occurs more than {size} times in {n} minutes, raise a SEV{prio} incident and page {team}.",
    "The default for {topic} is {size}; assess the load on the {svc} database before raising the limit.",
    "{svc} once failed because of a {topic} misconfiguration; the postmortem added automated checks before release.",
    "This policy is effective on publication and maintained by {team}; send questions to the {team} mailbox.",
]
_ZH_HEADINGS = [
    "{code}",
    "{topic}处理步骤说明",
    "{svc} {topic}告警",
    "{topic}审批规则",
    "{svc} 部署与回滚",
    "{topic}常见问题",
]
_EN_HEADINGS = [
    "{code}",
    "Handling {topic}",
    "{svc} {topic} alerts",
    "{topic} approval rules",
    "Deploying {svc}",
    "{topic} FAQ",
]


def _fill(template: str, rng: random.Random, topic: str, code: str, svc: str) -> str:
    return template.format(
        svc=svc,
        topic=topic,
        code=code,
        pct=rng.randint(70, 99),
        n=rng.randint(2, 30),
        size=rng.choice([50, 100, 200, 300, 500, 800]),
        alert=f"{svc.replace('-', '_').title().replace('_', '')}{rng.choice(['High', 'Saturated', 'Errors', 'Lag'])}",
        key=f"{svc.split('-')[0]}.{rng.choice(['pool', 'cache', 'retry', 'limit'])}.{rng.choice(['max_size', 'ttl_seconds', 'max_waiters', 'qps'])}",
        team=rng.choice(_TEAMS),
        method=rng.choice(["GET", "POST", "PUT"]),
        path=f"/api/v{rng.randint(1, 3)}/{svc.split('-')[0]}/{rng.choice(['orders', 'refunds', 'jobs', 'items'])}",
        status=rng.choice([400, 401, 409, 429, 500, 503, 504]),
        city=rng.choice(_CITIES),
        encity=rng.choice(_EN_CITIES),
        amount=rng.choice([1000, 5000, 20000, 50000]),
        prio=rng.randint(1, 3),
    )


def synthetic_document(n: int, rng: random.Random) -> tuple[str, str]:
    """(relative path, text) of synthetic document number n."""
    zh = n % 2 == 0
    svc = rng.choice(_SERVICES)
    topic = rng.choice(_ZH_TOPICS if zh else _EN_TOPICS)
    kind, scope, team = rng.choice(_KINDS), rng.choice(_SCOPES), rng.choice(_TEAMS)
    year = rng.choice([2024, 2025, 2026])
    superseded = rng.random() < 0.15
    tenant = f"t{rng.randint(1, 20):02d}" if rng.random() < 0.1 else ""
    title = f"{svc} {topic}{'运维手册' if zh else ' handbook'} #{n}"
    front = (
        f'---\ntitle: {title}\ndoc_id: syn-{n:05d}\nauthority: {team}\nkind: {kind}\nversion: "{year}.{rng.randint(1, 4)}"\n'
        f"effective_from: {year}-0{rng.randint(1, 9)}-01\neffective_to: {f'{year}-12-31' if superseded else ''}\n"
        f"scope: {scope}\ntenant: {tenant}\n---\n\n# {title}\n\n"
    )
    sections = []
    for s in range(rng.randint(6, 14)):
        code = f"ERR_{rng.choice(['SYN', 'GW', 'DB', 'MQ', 'HR', 'FIN'])}_{rng.randint(100, 9999)}"
        headings = _ZH_HEADINGS if zh else _EN_HEADINGS
        heading = _fill(rng.choice(headings), rng, rng.choice(_ZH_TOPICS if zh else _EN_TOPICS), code, svc)
        sentences = _ZH_SENTENCES if zh else _EN_SENTENCES
        body = ("" if zh else " ").join(
            _fill(rng.choice(sentences), rng, topic, code, rng.choice(_SERVICES))
            for _ in range(rng.randint(4, 9))
        )
        sections.append(f"## {heading} ({s + 1})\n\n{body}\n")
    return f"{scope}/syn-{n:05d}.md", front + "\n".join(sections)


def write_synthetic(root: Path, target_chunks: int, seed: int = 20260314) -> int:
    """Write synthetic documents under root until they hold `target_chunks` chunks; returns chunks."""
    rng = random.Random(seed)
    total, n = 0, 0
    while total < target_chunks:
        rel, text = synthetic_document(n, rng)
        chunks = len(parse_document(text, source=rel, default_doc_id=Path(rel).stem).chunks)
        while total + chunks > target_chunks:  # trim the last document to land exactly on target
            text = text[: text.rindex("\n## ")] + "\n"
            chunks = len(parse_document(text, source=rel, default_doc_id=Path(rel).stem).chunks)
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        total += chunks
        n += 1
    return total


# --------------------------------------------------------------------------- measurement


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    lang: str
    question: str
    relevant: frozenset[str]
    tenant: str
    as_of: date


def load_questions(path: Path) -> list[Question]:
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            questions.append(
                Question(
                    id=row["id"],
                    lang=row["lang"],
                    question=row["question"],
                    relevant=frozenset(row["relevant_doc_ids"]),
                    tenant=row.get("tenant") or DEFAULT_TENANT,
                    as_of=date.fromisoformat(row["as_of"]) if row.get("as_of") else DEFAULT_AS_OF,
                )
            )
    return questions


@dataclass(slots=True)
class Quality:
    n: int
    recall5: float
    hit5: float
    mrr10: float


def quality(index: QdrantKnowledgeIndex, questions: Sequence[Question]) -> dict[str, Quality]:
    rows: dict[str, list[tuple[float, float, float]]] = {"all": [], "zh": [], "en": []}
    for q in questions:
        hits = index.search(q.question, filters=SearchFilter(tenant=q.tenant, as_of=q.as_of), limit=10)
        docs = [h.chunk.doc_id for h in hits]
        top5 = set(docs[:5])
        recall = len(q.relevant & top5) / len(q.relevant)
        hit = 1.0 if q.relevant & top5 else 0.0
        rank = next((i for i, d in enumerate(docs, start=1) if d in q.relevant), None)
        row = (recall, hit, 1.0 / rank if rank else 0.0)
        rows["all"].append(row)
        rows.setdefault(q.lang, []).append(row)
    return {
        k: Quality(len(v), *(statistics.fmean(col) for col in zip(*v, strict=True)))
        for k, v in rows.items()
        if v
    }


def latencies(call: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def pct(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def search_latencies(
    index: QdrantKnowledgeIndex, questions: Sequence[Question], rounds: int
) -> tuple[list[float], list[float]]:
    """End-to-end `search` (L0 + L1, top 5) and single engine BM25 queries, both tenant + as_of filtered."""
    full: list[float] = []
    engine: list[float] = []
    for q in questions:  # warm-up
        index.search(q.question, filters=SearchFilter(tenant=q.tenant, as_of=q.as_of), limit=5)
    for _ in range(rounds):
        for q in questions:
            flt = SearchFilter(tenant=q.tenant, as_of=q.as_of)
            full += latencies(lambda q=q, flt=flt: index.search(q.question, filters=flt, limit=5), 1)
            sparse = index._bm25.query(q.question)
            gov = governance_filter(flt)
            engine += latencies(lambda s=sparse, g=gov: index._query(sparse=s, dense=None, flt=g, limit=5), 1)
    return full, engine


class TimedFlush:
    """Wraps an index to time `flush()` (Qdrant Edge runs its optimizer there)."""

    def __init__(self, index: QdrantKnowledgeIndex) -> None:
        self.index = index
        self.flush_seconds = 0.0

    def __getattr__(self, name: str) -> object:
        return getattr(self.index, name)

    def flush(self) -> None:
        start = time.perf_counter()
        self.index.flush()
        self.flush_seconds += time.perf_counter() - start


def dir_size(path: Path) -> int:
    """Bytes allocated on disk (the write-ahead log preallocates sparse files)."""
    return sum(p.stat().st_blocks * 512 for p in path.rglob("*") if p.is_file())


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --------------------------------------------------------------------------- report


def quality_table(results: dict[str, dict[str, Quality]]) -> str:
    lines = ["| corpus | questions | Recall@5 | Hit@5 | MRR@10 |", "|---|---|---|---|---|"]
    for name, by_lang in results.items():
        for lang in ("all", "zh", "en"):
            if lang in by_lang:
                q = by_lang[lang]
                label = name if lang == "all" else f"{name}, {lang}"
                bold = "**" if lang == "all" else ""
                lines.append(
                    f"| {label} | {q.n} | {bold}{q.recall5:.3f}{bold} | {q.hit5:.3f} | {bold}{q.mrr10:.3f}{bold} |"
                )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chunks", type=int, default=20_000, help="total chunks on the embedded backend")
    parser.add_argument(
        "--server-chunks", type=int, default=2_000, help="total chunks for the local-mode adapter"
    )
    parser.add_argument("--rounds", type=int, default=5, help="latency rounds over the question set")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; do not update docs/benchmarks.md"
    )
    args = parser.parse_args()

    if not QUESTIONS.is_file() or not DEMO_DOCS.is_dir():
        raise SystemExit(f"missing {QUESTIONS} or {DEMO_DOCS}")
    questions = load_questions(QUESTIONS)
    results: dict[str, dict[str, Quality]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)

        # 1. Demo alone, embedded.
        with EdgeKnowledgeIndex(work / "demo-shard") as demo:
            demo_report = ingest_path(DEMO_DOCS, demo)
            if demo_report.bad_files:
                raise SystemExit(f"bad demo files: {demo_report.bad_files}")
            demo_chunks = demo.count()
            results["demo only"] = quality(demo, questions)

        # 2. Demo + synthetic to N chunks, embedded.
        synthetic = work / "synthetic"
        started = time.perf_counter()
        synthetic_chunks = write_synthetic(synthetic, args.chunks - demo_chunks)
        generate_s = time.perf_counter() - started
        shard_dir = work / "big-shard"
        with EdgeKnowledgeIndex(shard_dir) as big:
            ingest_path(DEMO_DOCS, big)
            timed = TimedFlush(big)
            report: IngestReport = ingest_path(synthetic, timed)  # type: ignore[arg-type]
            total_chunks = big.count()
            results[f"demo + synthetic ({total_chunks:,} chunks)"] = quality(big, questions)
            full, engine = search_latencies(big, questions, args.rounds)
            shard_mb = dir_size(shard_dir) / 1e6
        with EdgeKnowledgeIndex(shard_dir) as reopened:
            started = time.perf_counter()
            reopened.count()
            reopen_ms = (time.perf_counter() - started) * 1000

        # 3. The server adapter through qdrant-client local mode, and the edge shard on the same corpus.
        small = work / "small"
        small_chunks = write_synthetic(small, args.server_chunks - demo_chunks, seed=7)
        adapter: dict[str, tuple[IngestReport, list[float], dict[str, Quality]]] = {}
        for name, make in (
            ("Qdrant Edge", lambda: EdgeKnowledgeIndex(work / "small-shard")),
            ("qdrant-client local mode", ServerKnowledgeIndex.local),
        ):
            with make() as index:
                ingest_path(DEMO_DOCS, index)
                small_report = ingest_path(small, index)
                small_full, _ = search_latencies(index, questions, 1)
                adapter[name] = (small_report, small_full, quality(index, questions))

    ingest_rate = report.chunks / report.seconds
    zh_n = sum(q.lang == "zh" for q in questions)
    body = f"""Corpus: the {demo_report.files} demo documents ({demo_chunks} chunks) plus {synthetic_chunks:,} synthetic chunks
({report.files:,} generated zh/en ops and HR documents with identifiers, 10% tenant-private, 15%
superseded) = **{total_chunks:,} chunks** on the embedded backend (one Qdrant Edge shard). Questions:
{len(questions)} labelled ({zh_n} zh, {len(questions) - zh_n} en), each searched with its own tenant (default
`{DEFAULT_TENANT}`) and `as_of` (default {DEFAULT_AS_OF}) filters; metrics are document-level.

| figure | value |
|---|---|
| **ingestion throughput** (read, parse, chunk, BM25-embed, upsert, optimize) | **{ingest_rate:,.0f} chunks/s** ({report.chunks:,} chunks in {report.seconds:.1f} s) |
| of which the final flush + optimize | {timed.flush_seconds:.1f} s |
| **search latency p50 / p95 / p99** (`search`, L0 + L1, top 5, tenant + as_of filters) | **{pct(full, 50):.2f} / {pct(full, 95):.2f} / {pct(full, 99):.2f} ms** |
| engine query latency p50 / p95 (one filtered BM25 query) | {pct(engine, 50):.2f} / {pct(engine, 95):.2f} ms |
| latency samples | {len(full):,} ({args.rounds} rounds over the questions, one thread) |
| shard on disk / reopen | {shard_mb:.0f} MB / {reopen_ms:.0f} ms |
| peak RSS (whole benchmark) | {rss_mb():.0f} MB |
| synthetic corpus generation (not counted above) | {generate_s:.1f} s |

{quality_table(results)}

The synthetic documents reuse the demo's vocabulary (payment, timeouts, refunds, approvals, on-call,
SEV levels, log shipping), so they are real distractors. The English questions lose most: their few
content words are frequent in the English synthetic text. A question in one language about a
document written in the other is out of reach of BM25 alone (an embedding endpoint, when
configured, adds dense vectors for that).

Server adapter (`ServerKnowledgeIndex`) through `qdrant-client` local mode, on a smaller corpus
({demo_chunks} demo + {small_chunks:,} synthetic chunks). Local mode is a pure-Python stand-in that
speaks the client API: this shows the same layout, filters and ranking work through the client
(the tests assert identical rankings), not the speed of a Qdrant server.

| backend, {demo_chunks + small_chunks:,} chunks | ingestion | search p50 / p95 | Recall@5 | MRR@10 |
|---|---|---|---|---|
""" + "\n".join(
        f"| {name} | {rep.chunks / rep.seconds:,.0f} chunks/s | {pct(lat, 50):.2f} / {pct(lat, 95):.2f} ms "
        f"| {qual['all'].recall5:.3f} | {qual['all'].mrr10:.3f} |"
        for name, (rep, lat, qual) in adapter.items()
    )
    print(body)
    if not args.no_write:
        if "<!-- bench:retrieval:start -->" not in (DOC.read_text(encoding="utf-8") if DOC.exists() else ""):
            with DOC.open("a", encoding="utf-8") as handle:
                handle.write(INTRO)
        write_section("retrieval", body)


if __name__ == "__main__":
    main()
