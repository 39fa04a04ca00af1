"""Offline roles: rules for planning, extraction for the executor. No model, always grounded.

The rule planner asks the cheap, specific sources first (knowledge search, plus an order or a trace
named in the question); a second round, driven by the retry context, reads live telemetry (logs and
metrics in the question's time window) for what the documents could not prove.

Planning follows the question's needs (`groundgate.questions`): round 1 searches the documents once
per need (the whole question when it asks one thing); round 2 reads live telemetry in the question's
window and searches again for each need still unmet — with the need's names, words and conditions,
never with the verifier's gap prose.

The extractive executor never writes a fact of its own: for each need it states the evidence that
meets it — a document sentence or clause, a table row, a verified fact, a metric's recovery — quoted
with its citation (`runtime.answers`). It reads the evidence as `verify.evidence_items` prepares it
(instruction-like text blanked out, so it is never quoted), skips a fact that talks to the assistant,
and leaves out a sentence that a passage of higher authority contradicts (`outranking_conflicts`):
where sources disagree, the higher one wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from groundgate.contracts import (
    AgentStep,
    AnswerKind,
    Claim,
    ClaimType,
    EvidenceRef,
    ExecutorOutput,
    Need,
    ParseStatus,
    PlannerOutput,
    ToolCall,
)
from groundgate.questions import TermEquivalents, derive_needs, is_rule_name, round_two_query
from groundgate.questions.equivalents import bundled_equivalents
from groundgate.questions.log_lines import asked_lines
from groundgate.questions.moments import asks_value_at
from groundgate.questions.order_sets import asked_order_set
from groundgate.questions.status_classes import asked_status_class, class_query
from groundgate.questions.window_stats import asked_stats, asked_window
from groundgate.runtime.answers import Unit, choose_units
from groundgate.runtime.roles import ExecuteRequest, PlanRequest, RoleOutcome
from groundgate.text.segmentation import is_cjk_text, tokenize
from groundgate.verify import fidelity
from groundgate.verify.claims import key_decision
from groundgate.verify.evidence_items import outranking_conflicts

#: Knowledge searches per round for the needs of a question (the rest share the call budget).
_MAX_NEED_SEARCHES = 3
_ORDER_ID = re.compile(r"\bORD-\d{8}-\d{3,6}\b")
_TRACE_ID = re.compile(r"\b[0-9a-f]{16,32}\b")
#: Words in a question that point at a metric of the demo platform (and at most platforms).
_METRIC_HINTS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("连接池", "connection pool", "pool", "连接数"), "db_pool_active_connections"),
    (("等待", "排队", "等连接", "wait queue", "waiters", "waiting for a connection"), "db_pool_wait_queue"),
    (("延迟", "耗时", "latency", "p99", "slow"), "http_request_duration_p99_ms"),
    (("错误率", "超时", "error rate", "timeout", "err_"), "payment_gateway_error_rate"),
    (("成功率", "success rate"), "payment_success_rate"),
    (("积压", "lag", "kafka", "consumer group", "消费组", "behind"), "kafka_consumer_lag"),
    (("命中率", "hit rate", "redis", "缓存"), "redis_hit_rate"),
)
_ROOT_CAUSE = re.compile(
    r"根因|原因|导致|引起|由于|because|cause|due to|led to|result(?:s|ed)? in", re.IGNORECASE
)
_FIX = re.compile(
    r"修复|处理|解决|扩容|重启|回滚|调整|fix|restart|roll ?back|scale|increase|mitigat", re.IGNORECASE
)


def _tool_names(tools: Sequence[dict[str, Any]]) -> set[str]:
    return {str(t.get("name")) for t in tools}


#: A record identifier that names its day (`INC-20260314-01`, `RF-20260314-0005`); orders have their tool.
_DATED_ID = re.compile(r"\b(?!ORD-)([A-Z]{2,6})-(20\d{2})(\d{2})(\d{2})-\d{1,6}\b")


_REFUND = re.compile(r"refund|refnd|退款|退了", re.IGNORECASE)
#: A moment in a record's life asked about ("它在连接池*排队的时候*…", "*while it waited* for a
#: connection"): what happened then is told by the record's warning or INFO lines, not its error.
_ITS_MOMENT = re.compile(r"的时候|排队|等待|等了|\b(?:when|while)\s+it\b|\bwait(?:ed|ing)?\b", re.IGNORECASE)


def _dated_ids(text: str) -> list[tuple[str, date]]:
    found: dict[str, date] = {}
    for m in _DATED_ID.finditer(text):
        try:
            found.setdefault(m.group(0), date(int(m.group(2)), int(m.group(3)), int(m.group(4))))
        except ValueError:
            continue  # not a calendar day: an identifier that only looks like one
    return list(found.items())


def _identifiers(text: str) -> list[str]:
    return [m.text for m in fidelity.extract(text) if m.kind == "identifier"]


class RulePlanner:
    """Deterministic planner used when no model is configured."""

    def __init__(
        self,
        *,
        now: datetime | None = None,
        window_minutes: int = 30,
        live_until: Callable[[], datetime | None] | None = None,
    ) -> None:
        self.now = now
        self.window = timedelta(minutes=window_minutes)
        self.live_until = live_until
        """When the live evidence ends (None: it runs up to now); see `_window`."""

    def plan(self, request: PlanRequest) -> RoleOutcome[PlannerOutput]:
        tools = _tool_names(request.tools)
        question = request.question
        calls: list[ToolCall] = []
        targets: list[str] = []
        if request.retry_context is None:
            if "lookup_knowledge" in tools:
                # One search per need (a two-part question asks two things); the whole question when
                # it asks one thing.
                searches: dict[str, str] = {}
                for need in request.unmet_needs[:_MAX_NEED_SEARCHES]:
                    searches.setdefault(need.search_text[:500] or question[:500], need.label)
                for query, label in (searches or {question[:500]: "documented answer"}).items():
                    calls.append(ToolCall(tool="lookup_knowledge", arguments={"query": query}, purpose=label))
                    targets.append(label)
            # A window statistic is answered by its series, a set of log lines by the lines, not by a
            # document: read them now, after the first search (the other searches fit in the round's
            # budget after them).
            stat_calls = self._stat_calls(request.unmet_needs, question) if "query_metrics" in tools else []
            stat_calls += self._line_calls(request.unmet_needs, question) if "query_logs" in tools else []
            # "5xx 错误率": the first search also asks which codes return a status of that class (the
            # round has no room for another search beside the chunked reads).
            classed = [c for c in stat_calls if c.purpose == "status class"]
            stat_calls = [c for c in stat_calls if c.purpose != "status class"]
            if classed and calls and calls[0].tool == "lookup_knowledge":
                query = f"{calls[0].arguments['query']} {classed[0].arguments['query']}"
                calls[0] = calls[0].model_copy(update={"arguments": {"query": query, "top_k": 10}})
            if stat_calls:
                calls[1:1] = stat_calls
                targets[1:1] = [c.purpose or "window statistic" for c in stat_calls]
            if "query_order" in tools:
                for order_id in dict.fromkeys(_ORDER_ID.findall(question)):
                    calls.append(
                        ToolCall(tool="query_order", arguments={"order_id": order_id}, purpose="order state")
                    )
                    targets.append(f"order {order_id}")
            if "count_orders" in tools:
                # Session 31 round 5: orders counted or listed by status, failure code and window.
                calls += self._order_set_calls(request.unmet_needs, question)
                targets += [c.purpose or "order set" for c in calls if c.tool == "count_orders"]
            if "query_logs" in tools:
                for trace_id in dict.fromkeys(_TRACE_ID.findall(question)):
                    calls.append(
                        ToolCall(tool="query_logs", arguments={"trace_id": trace_id}, purpose="trace")
                    )
                    targets.append(f"trace {trace_id}")
                # A follow-up's record is named by the turn before ("后来改过吗？" after "INC-… 刚开的时候
                # 定的是几级？"): the needs carry it over as their anchors.
                named = " ".join([question, *(a for n in request.unmet_needs for a in n.anchors)])
                for record_id, day in _dated_ids(named)[:2]:
                    # `INC-20260314-01`, `CHG-20260314-007`: a record of that day; its lines (opened,
                    # closed, approved — not errors) are in that day's logs.
                    start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
                    args = {
                        "keywords": [record_id],
                        "start": start.isoformat(),
                        "end": (start + timedelta(days=1)).isoformat(),
                    }
                    calls.append(ToolCall(tool="query_logs", arguments=args, purpose=f"record {record_id}"))
                    targets.append(f"record {record_id}")
            intent = "lookup"
        else:
            calls, targets = self._retry_calls(request, tools)
            intent = "fill_gaps"
        output = PlannerOutput(intent=intent, calls=calls, evidence_targets=targets)
        return RoleOutcome(
            output,
            AgentStep(
                role="planner",
                round=request.round,
                thought=f"rule plan: {len(calls)} calls for {', '.join(targets) or 'nothing new'}",
                reason_code="rule_plan",
                model_output=output.model_dump(mode="json"),
                parse_status=ParseStatus.OK,
                model_name="offline-rules",
            ),
        )

    def _retry_calls(self, request: PlanRequest, tools: set[str]) -> tuple[list[ToolCall], list[str]]:
        """Round 2: live evidence in the question's window, and a search per unmet need — built from
        the needs themselves (names, words, conditions), never from the gap prose."""
        assert request.retry_context is not None
        unmet = request.unmet_needs
        text = " ".join([request.question, *(n.text for n in unmet), *(a for n in unmet for a in n.anchors)])
        window = self._window(request.question)
        # A statistic over a window ("today's peak", "how long over 1500"): its series raw, first, so
        # the call budget spends itself on them (`_stat_calls`).
        done = {_read_key(c) for c in request.done_calls}
        stat_calls = self._stat_calls(unmet, text) if "query_metrics" in tools else []
        stat_calls += self._line_calls(unmet, request.question) if "query_logs" in tools else []
        calls: list[ToolCall] = [c for c in stat_calls if _read_key(c) not in done]
        targets = [n.label for n in unmet] or list(request.retry_context.missing_evidence_facts)
        keywords = list(dict.fromkeys(_identifiers(text)))[:3]
        if "query_logs" in tools and (window or keywords):
            # Errors of the window; a named record's lines whatever their level (a change approved,
            # an incident closed are INFO lines).
            # An order's refund is such a record too: the order store holds no refund id, channel or
            # webhook; its INFO lines do.
            # So is an order asked at a moment of its life: `acquire connection timeout … waiters=230
            # waited_ms=3000 order_id=ORD-…` is a warning.
            dated = _dated_ids(text)
            order_moment = not dated and _ORDER_ID.search(text) and _ITS_MOMENT.search(text)
            named = dated or order_moment or (_ORDER_ID.search(text) and _REFUND.search(text))
            if order_moment:
                # Its own lines only: any line naming the pool (`payment-db`) as well would bury them.
                keywords = list(dict.fromkeys(_ORDER_ID.findall(text)))[:3]
            # A name no document spoke of (a batch job `recon-daily`, a query tag) is written on the
            # lines of its own events, which are INFO and WARN lines as often as errors.
            unspoken = {n.lower() for n in request.unspoken_names}
            only_logs = bool(keywords) and all(k.lower() in unspoken for k in keywords)
            args: dict[str, Any] = {} if named or only_logs else {"level": "ERROR"}
            if any(is_rule_name(k) for k in keywords):
                # An alert rule named beside an error code ("When did PaymentTimeoutRateHigh fire,
                # what ERR_TIMEOUT rate did it report?"): the alert's own lines, not the code's errors.
                keywords = [k for k in keywords if is_rule_name(k)]
            rules = all(is_rule_name(k) for k in keywords)
            if args and keywords and (rules or any(n.kind is AnswerKind.REASON for n in unmet)):
                # "Why did ORD-… fail?": every line of the named record — the warning that explains
                # the error (`acquire connection timeout … order_id=ORD-…`), the INFO line that gives
                # the bank's reason (`declined … reason=insufficient_balance`). A record has a few
                # lines; the answer keeps those that say a cause (`gives_kind`, "Answer kinds"). So
                # for alert rules asked about (`alert firing PaymentTimeoutRateHigh … rate=10.8` is a
                # WARN line, a page acknowledged an INFO one).
                args = {}
            if keywords:
                args["keywords"] = keywords
            if window:
                args["start"], args["end"] = (t.isoformat() for t in window)
            calls.append(ToolCall(tool="query_logs", arguments=args, purpose="live evidence for the gaps"))
        if "query_metrics" in tools and window:
            lowered = text.lower()
            # The value at one minute is a raw point of the series: half the window keeps a 1-minute
            # series under the tool's 60 points, so it is not downsampled into bucket maxima.
            at_minute = any(asks_value_at(n) for n in unmet)
            metric_window = (self._window(request.question, self.window / 2) if at_minute else None) or window
            for metric in _hinted_metrics(lowered):
                if not any(c.arguments.get("name") == metric for c in calls):
                    start, end = (t.isoformat() for t in metric_window)
                    calls.append(
                        ToolCall(
                            tool="query_metrics",
                            arguments={"name": metric, "start": start, "end": end},
                            purpose="live evidence for the gaps",
                        )
                    )
        if "lookup_knowledge" in tools:
            for need in unmet[:_MAX_NEED_SEARCHES]:
                query = round_two_query(need)
                if query:
                    calls.append(
                        ToolCall(
                            tool="lookup_knowledge",
                            arguments={"query": query},
                            purpose=f"need {need.id}: {need.label}",
                        )
                    )
        return calls, targets

    def _stat_calls(self, unmet: Sequence[Need], text: str) -> list[ToolCall]:
        """Raw reads of the series a window statistic is asked of (Session 30): the asked window
        (two clock times) with a little on either side, else the last `_STAT_CHUNKS` hours of the live
        data, in chunks of `_RAW_MINUTES` minutes so the tool never downsamples them into bucket maxima
        (a peak or a first minute over a threshold is a raw point)."""
        asking = [n for n in unmet if asked_stats(n)]
        if not asking:
            return []
        end = (self.live_until() if self.live_until else None) or self.now or datetime.now(UTC)
        end = end.replace(second=0, microsecond=0)
        named = next((w for n in asking if (w := asked_window(n)) is not None), None)
        if named is not None:
            first = self._last_such_minute(named[0], timedelta(minutes=_STAT_MARGIN))
            if first is None:
                return []
            start, end = first[0], first[1] + timedelta(minutes=_minutes(named[1]) - _minutes(named[0]))
            chunks: list[tuple[datetime, datetime]] = []
            while start <= end and len(chunks) < _STAT_CHUNKS:
                chunks.append((start, min(end, start + timedelta(minutes=_RAW_MINUTES - 1))))
                start += timedelta(minutes=_RAW_MINUTES)
        else:
            # The asking parts' own days only: "跟昨天（3 月 13 日）同一时段比" in another part asks
            # another thing and does not move today's peak (Session 31).
            named_span = self._window(" ".join(_own_text(n) for n in asking))
            if named_span is not None and not named_span[0] <= end <= named_span[1]:
                return []  # another day or moment than the live data's last: the usual read serves it
            # The whole live day first: its summary (over every raw point) shows whether the chunks
            # hold all of the day's points (`runtime.window_stats`); then the chunks, oldest first.
            hours = sorted(
                (
                    end - timedelta(minutes=_RAW_MINUTES * (k + 1) - 1),
                    end - timedelta(minutes=_RAW_MINUTES * k),
                )
                for k in range(_STAT_CHUNKS)
            )
            chunks = [(end.replace(hour=0, minute=0), end), *hours]
        lowered = " ".join([text, *(n.text for n in asking)]).lower()
        reads = [
            ToolCall(
                tool="query_metrics",
                arguments={"name": metric, "start": a.isoformat(), "end": b.isoformat()},
                purpose="window statistic",
            )
            for metric in _hinted_metrics(lowered, first_named=True)[:1]
            for a, b in chunks
        ]
        # "5xx 错误率": the error-code handbook says which codes return a status of that class.
        digit = next((d for n in asking if (d := asked_status_class(n.text)) is not None), None)
        if reads and digit is not None:
            query = class_query(digit, is_cjk_text(text))
            reads.append(
                ToolCall(
                    tool="lookup_knowledge", arguments={"query": query, "top_k": 10}, purpose="status class"
                )
            )
        return reads

    def _order_set_calls(self, unmet: Sequence[Need], question: str) -> list[ToolCall]:
        """The orders a question asks as a set (`questions.order_sets`): one `count_orders` read, its
        window the asked clock times on the live day (the last such minute, as for a statistic)."""
        ask = asked_order_set(unmet, question)
        if ask is None:
            return []
        args: dict[str, Any] = {}
        if ask.statuses:
            args["status"] = list(ask.statuses)
        if ask.failure_codes:
            args["failure_code"] = list(ask.failure_codes)
        if ask.window is not None:
            first = self._last_such_minute(ask.window[0], timedelta(0))
            if first is None:
                return []
            start = first[0] + self.window  # `_last_such_minute` pads by the default window
            named = self._named_day(question)
            if named is not None:
                # `3月14日 14:00 到 15:00`: the clock times of the day the question names
                start = start.replace(year=named.year, month=named.month, day=named.day)
            args["start"] = start.isoformat()
            args["end"] = (
                start + timedelta(minutes=_minutes(ask.window[1]) - _minutes(ask.window[0]))
            ).isoformat()
            if ask.by_outcome:
                args["window_by"] = "updated"  # "failed between …": when they failed
        return [ToolCall(tool="count_orders", arguments=args, purpose="order set")]

    def _line_calls(self, unmet: Sequence[Need], question: str) -> list[ToolCall]:
        """The log lines of one kind asked about as a set (Session 30, `questions.log_lines`): the live
        day's matching lines, every level, read oldest first and newest first, one line each — the
        count comes with either, and the two lines are the first and the last."""
        ask = next((a for n in unmet if (a := asked_lines(n, question)) is not None), None)
        if ask is None:
            return []
        end = (self.live_until() if self.live_until else None) or self.now or datetime.now(UTC)
        day = self._window(question)
        start, stop = (
            day if day is not None else (end.replace(hour=0, minute=0, second=0, microsecond=0), end)
        )
        args: dict[str, Any] = {
            "keywords": list(ask.keywords),
            "keyword_mode": "all",
            "start": start.isoformat(),
            "end": stop.isoformat(),
            "limit": 1,
        }
        if ask.service:
            args["service"] = ask.service
        return [
            ToolCall(tool="query_logs", arguments={**args, "order": order}, purpose="log lines of one kind")
            for order in ("asc", "desc")
        ]

    def _window(self, question: str, half: timedelta | None = None) -> tuple[datetime, datetime] | None:
        """The time window a question names: its date and time of day, ± the window size (`half`)."""
        mentions = fidelity.extract(question)
        time = next((m for m in mentions if m.kind == "time"), None)
        clock = str(time.value) if time is not None else None
        if not any(m.kind == "date" for m in mentions):
            # `2点08分` (no daypart) is either half of the day: the later of the two last such minutes.
            readings = [clock] if time is None or time.qualifier != "12h" else _both_halves(str(time.value))
            windows = [w for c in readings if (w := self._last_such_minute(c, half)) is not None]
            return max(windows, default=None)
        named = self._named_day(question)
        if named is None:
            return None  # a month or a year, not a day
        start = datetime(named.year, named.month, named.day, tzinfo=UTC)
        if clock and re.fullmatch(r"\d{2}:\d{2}", clock):
            hour, minute = map(int, clock.split(":"))
            at = start.replace(hour=hour, minute=minute)
            return at - (half or self.window), at + (half or self.window)
        return start, start + timedelta(days=1)

    def _named_day(self, question: str) -> date | None:
        """The day `question` names (`3月14日`, `2026-03-14`; a day without a year is this year's)."""
        day = next((str(m.value) for m in fidelity.extract(question) if m.kind == "date"), None)
        if day is None:
            return None
        match = re.fullmatch(r"(\d{4})?-?-(\d{2})-(\d{2})|(\d{4})-(\d{2})-(\d{2})", day)
        if not match:
            return None
        groups = [g for g in match.groups() if g]
        if len(groups) == 2:
            groups = [str((self.now or datetime.now(UTC)).year), *groups]
        try:
            return date(int(groups[0]), int(groups[1]), int(groups[2]))
        except ValueError:
            return None

    def _last_such_minute(
        self, clock: str | None, half: timedelta | None
    ) -> tuple[datetime, datetime] | None:
        """A clock time without a day ("payment success rate at 14:16 UTC?") is the last such minute
        before the live evidence ends (`live_until`; now when there is none): today's 14:16 on a live
        system once it has passed, yesterday's before; the replayed day's in a replay."""
        if not clock or not re.fullmatch(r"\d{2}:\d{2}", clock):
            return None
        end = (self.live_until() if self.live_until else None) or self.now or datetime.now(UTC)
        hour, minute = map(int, clock.split(":"))
        at = end.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if at > end:
            at -= timedelta(days=1)
        return at - (half or self.window), at + (half or self.window)


#: Points the metric tool returns raw (it downsamples beyond 60), and how many such hours a window
#: statistic reads at most when the question names no window, with the minutes read either side of
#: a named one.
_RAW_MINUTES = 60
_STAT_CHUNKS = 3
_STAT_MARGIN = 5


def _read_key(call: ToolCall) -> tuple[str, ...]:
    """A read as the tool sees it (`…T13:00:00Z` and `…T13:00:00+00:00` are one start)."""
    args = {k: str(v)[:19] if k in ("start", "end") else str(v) for k, v in call.arguments.items()}
    return (call.tool, *sorted(f"{k}={v}" for k, v in args.items() if k in _READ_ARGS))


#: What tells one read from another (the tool adds defaults such as `top_k` to a call it ran).
_READ_ARGS = frozenset({"name", "labels", "start", "end", "keywords", "service", "order", "limit"})


def _minutes(clock: str) -> int:
    return int(clock[:2]) * 60 + int(clock[3:5])


def _hinted_metrics(lowered: str, *, first_named: bool = False) -> list[str]:
    """The metrics a question's words point at (`_METRIC_HINTS`), in that order, or with `first_named`
    in the order the question names them (`ERR_POOL_EXHAUSTED rate` is the error rate, not the pool)."""
    found = [
        (min(lowered.find(h) for h in hints if h in lowered), n, metric)
        for n, (hints, metric) in enumerate(_METRIC_HINTS)
        if any(h in lowered for h in hints)
    ]
    return [metric for *_, metric in (sorted(found) if first_named else found)]


def _both_halves(clock: str) -> list[str | None]:
    """`02:08` and `14:08`: a clock time said with no daypart, in either half of the day."""
    if not re.fullmatch(r"\d{2}:\d{2}", clock) or int(clock[:2]) >= 12:
        return [clock]
    return [clock, f"{int(clock[:2]) + 12:02d}{clock[2:]}"]


#: Interrogatives and fillers that say what kind of answer is wanted, not what it is about.
QUESTION_WORDS = frozenset(
    [
        "什么",
        "多少",
        "哪个",
        "哪些",
        "如何",
        "怎么",
        "怎样",
        "为什么",
        "是否",
        "吗",
        "呢",
        "一般",
        "现在",
        "目前",
        "请问",
        "能否",
        "可以",
        "多久",
        "几",
        "哪里",
        "what",
        "how",
        "which",
        "why",
        "when",
        "where",
        "who",
        "does",
        "did",
        "is",
        "are",
        "was",
        "were",
        "can",
        "could",
        "should",
        "would",
        "much",
        "many",
    ]
)
#: A sentence must share two question terms (or one identifier) to be quoted at all...
_MIN_SCORE = 2.0
#: ...and score at least this share of the best sentence.
_RELATIVE_SCORE = 0.5


_FACT_PREFIXES = ("order.", "log.", "metric.", "20")  # rendered facts start with their type or a timestamp
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")


def _cjk_bigrams(text: str) -> set[str]:
    return {run[i : i + 2] for run in _CJK_RUN.findall(text) for i in range(len(run) - 1)}


@dataclass(frozen=True, slots=True)
class _QuestionTerms:
    """What the extractive executor matches evidence against."""

    tokens: frozenset[str]
    bigrams: frozenset[str]
    identifiers: frozenset[str]
    days: frozenset[str]
    times: frozenset[str]

    @classmethod
    def of(cls, question: str) -> _QuestionTerms:
        content = "".join(ch for ch in question if ch not in "什么多少哪个些如何怎样为是否吗呢谁")
        return cls(
            tokens=frozenset(t for t in tokenize(question) if len(t) > 1 and t not in QUESTION_WORDS),
            bigrams=frozenset(_cjk_bigrams(content)),
            identifiers=frozenset(i.lower() for i in _identifiers(question)),
            days=frozenset(_days(question)),
            times=frozenset(str(m.value)[:5] for m in fidelity.extract(question) if m.kind == "time"),
        )


def _days(text: str) -> set[str]:
    """The calendar days a text names, as `MM-DD` (years vary in how they are written)."""
    return {str(m.value)[-5:] for m in fidelity.extract(text) if m.kind == "date" and len(str(m.value)) >= 5}


def _claim_type(text: str) -> ClaimType:
    if _ROOT_CAUSE.search(text):
        return ClaimType.ROOT_CAUSE
    if _FIX.search(text):
        return ClaimType.FIX
    return ClaimType.GENERAL_FACT


class ExtractiveExecutor:
    """Executor used when no model is configured: states, for each need of the question, the evidence
    that meets it (`runtime.answers`), each claim quoting its source verbatim."""

    def __init__(self, *, max_claims: int = 5, equivalents: TermEquivalents | None = None) -> None:
        self.max_claims = max_claims
        self.equivalents = equivalents if equivalents is not None else bundled_equivalents()
        """Other words for a need's words (default: the bundled zh↔en lexicon): a Chinese passage
        then answers an English question."""

    def execute(self, request: ExecuteRequest) -> RoleOutcome[ExecutorOutput]:
        needs = request.needs or derive_needs(request.question)
        question = _QuestionTerms.of(needs.resolved_question)

        def relevance(unit: Unit) -> float:
            return self._score(unit.text, question)

        def keep(unit: Unit) -> bool:
            # A higher-authority passage of this run that says otherwise wins: this one is not stated.
            item = unit.item
            return item.authority is None or not outranking_conflicts(unit.text, [item], request.evidence)

        chosen = choose_units(
            needs,
            request.evidence,
            relevance=relevance,
            keep=keep,
            max_claims=self.max_claims,
            equivalents=self.equivalents,
        )
        claims = [
            Claim(
                id=f"c{n}",
                text=unit.text,
                claim_type=_claim_type(unit.text),
                critical=key_decision(unit.text).key,
                evidence_refs=[
                    EvidenceRef(
                        invocation_id=item.invocation_id, citation_id=item.citation_id, excerpt=excerpt
                    )
                    for item, excerpt in unit.quotes
                ],
            )
            for n, unit in enumerate(chosen, start=1)
        ]
        joiner = "" if is_cjk_text(needs.resolved_question) else " "
        output = ExecutorOutput(claims=claims, final_answer=joiner.join(c.text for c in claims))
        return RoleOutcome(
            output,
            AgentStep(
                role="executor",
                round=request.round,
                thought=(
                    f"extracted {len(claims)} claims for {len(needs.needs)} needs "
                    f"from {len(request.evidence)} evidence items"
                ),
                reason_code="extractive",
                model_output=output.model_dump(mode="json"),
                parse_status=ParseStatus.OK,
                model_name="offline-extractive",
            ),
        )

    @staticmethod
    def _score(text: str, question: _QuestionTerms) -> float:
        """Shared words, half a point per shared Chinese character pair (segmentation differs),
        three per identifier of the question, and for a dated question two per matching day/time."""
        tokens = set(tokenize(text))
        if not tokens:
            return 0.0
        overlap = len(tokens & question.tokens)
        pairs = len(_cjk_bigrams(text) & question.bigrams) if question.bigrams else 0
        lowered = text.lower()
        id_hits = sum(1 for i in question.identifiers if i in lowered)
        when = 0
        if question.days and _days(text) & question.days:
            when += 2 + 2 * sum(1 for t in question.times if t in text)
        # A live record naming the question's identifier outranks a document that merely mentions it.
        live = 3 if id_hits and text.startswith(_FACT_PREFIXES) else 0
        return overlap + 0.5 * pairs + 3 * id_hits + when + live


def _own_text(need: Need) -> str:
    """A need's own words and the texts of its conditions (a day it took from the part before)."""
    return " ".join([need.text, *(c.text for c in need.conditions)])
