"""The tool registry: the one boundary between a plan and the stores (docs/design.md §1, invariants 1, 2, 7).

A model proposes `ToolCall`s: a tool name and business arguments only. Everything that decides
*who* is asking comes from the `ExecutionContext` the server resolved; the registry hands that
context to the tool function itself, so a tool can never receive a tenant through its arguments.

Plan validation (`validate_plan`) rejects a plan **whole**, before anything runs; `execute`
validates the single call again right before it runs (defence in depth) and turns every failure
into a `ToolResult` instead of an exception.

Reason codes (`ReasonCode`)
---------------------------

| code | where | status | meaning |
|---|---|---|---|
| `ok` | plan | | every call names a registered tool with valid arguments |
| `authorization_field_in_plan` | plan, execute | `ERROR` | an argument key at any depth is an authorization field in any case style (`tenant`, `tenantId`, `TENANT_ID`, `user-id`, `roles`, ...; see `AUTHORIZATION_FIELDS`) |
| `unknown_tool` | plan, execute | `ERROR` | no tool of that name is registered |
| `invalid_arguments` | plan, execute | `ERROR` | an argument is unknown to the tool's schema (argument models forbid extras, so a date range given to a tool without one lands here) or ill-typed |
| `policy_denied` | execute | `DENIED` | the tool's authorization policy refused the `ExecutionContext` |
| `tool_timeout` | execute | `TIMEOUT` | the tool did not finish within `ToolSpec.timeout_seconds`; its late result is dropped |
| `tool_failed` | execute | `ERROR` | the tool raised; the exception is reduced to a one-line message (no traceback) |
| `invalid_tool_output` | execute | `ERROR` | the tool returned something other than a `ToolOutput` |

`ToolResult.error` reads `"<code>: <detail>"`. The authorization check runs first: a plan that
names an authorization field is reported as such even when it is wrong in other ways too.

Authorization policies (`ToolSpec.authorization_policy`)
--------------------------------------------------------

- `tenant` — `ctx.tenant` must be a non-blank string; the tool function receives `ctx` and must
  scope every read by `ctx.tenant`.
- `public` — no requirement (the clock, formatting helpers).
- `project` — the call's target project must be allowed: the target is what the `project_of`
  function given to `register` returns for the parsed arguments (a business argument naming a
  project-scoped resource), else `ctx.project`. No target → `DENIED`; a non-empty
  `ctx.allowed_projects` not containing the target → `DENIED`. An empty `allowed_projects`
  means "no project restriction" (the `ExecutionContext` contract), so then any target passes.

Timeouts
--------

Every call runs on a worker of one shared `ThreadPoolExecutor` owned by the registry (close it with
`close()` or use the registry as a context manager). The timeout counts from submission. A call
still running at its deadline becomes `TIMEOUT`; Python cannot stop a thread, so the function runs
on, but nothing ever reads its output: the future is abandoned and `late_results_dropped` counts
it when it finally finishes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from enum import StrEnum
from types import TracebackType
from typing import Any, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from groundgate.contracts import (
    AUTHORIZATION_FIELDS,
    EvidenceRef,
    ExecutionContext,
    ToolCall,
    ToolOutput,
    ToolResult,
    ToolSpec,
    ToolStatus,
)
from groundgate.errors import GroundgateError, UsageError

__all__ = [
    "POLICIES",
    "ArgsT",
    "PlanCheck",
    "ReasonCode",
    "ToolArguments",
    "ToolFunction",
    "ToolRegistry",
    "find_authorization_fields",
    "is_authorization_field",
]

_log = logging.getLogger(__name__)

ArgsT = TypeVar("ArgsT", bound=BaseModel)

#: A tool function: the parsed argument model and the server's context in, a `ToolOutput` out.
ToolFunction: TypeAlias = Callable[[ArgsT, ExecutionContext], ToolOutput]

#: The authorization policies `ToolSpec.authorization_policy` may name (see the module docstring).
POLICIES: frozenset[str] = frozenset({"tenant", "public", "project"})

_TOOL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")
_MAX_ERROR_CHARS = 300
_MAX_DETAIL_ERRORS = 5


class ReasonCode(StrEnum):
    """Why a plan or a call was refused (see the module table)."""

    OK = "ok"
    AUTHORIZATION_FIELD_IN_PLAN = "authorization_field_in_plan"
    UNKNOWN_TOOL = "unknown_tool"
    INVALID_ARGUMENTS = "invalid_arguments"
    POLICY_DENIED = "policy_denied"
    TOOL_TIMEOUT = "tool_timeout"
    TOOL_FAILED = "tool_failed"
    INVALID_TOOL_OUTPUT = "invalid_tool_output"


class ToolArguments(BaseModel):
    """Base of the built-in argument models: unknown arguments are errors, strings are stripped.

    The registry requires `extra="forbid"` of every argument model, derived from this one or not.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class PlanCheck(BaseModel):
    """The outcome of `ToolRegistry.validate_plan`.

    `ok` plans carry their calls with parsed, normalised arguments (defaults filled in, `None`
    dropped, datetimes in UTC ISO form); a refused plan carries no calls at all.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    ok: bool
    reason_code: ReasonCode
    detail: str = ""
    """A short human-readable reason (the pydantic errors summarised, the offending key paths)."""
    call_index: int | None = None
    """Index of the first offending call in the plan."""
    calls: tuple[ToolCall, ...] = Field(default_factory=tuple)


# --------------------------------------------------------------------------- authorization fields


def _fold_key(key: str) -> str:
    """`tenantId`, `TENANT_ID`, `tenant-id`, `Tenant Id` → `tenantid`."""
    return re.sub(r"[^0-9a-z]", "", key.casefold())


_AUTH_KEYS: frozenset[str] = frozenset(
    {_fold_key(name) for name in AUTHORIZATION_FIELDS}
    | {_fold_key(name) + "s" for name in AUTHORIZATION_FIELDS}
)


def is_authorization_field(key: object) -> bool:
    """Whether a key names an authorization field, in any case style, singular or plural."""
    return _fold_key(str(key)) in _AUTH_KEYS


def find_authorization_fields(value: object, path: str = "") -> list[str]:
    """Paths (`filters[0].tenantId`) of every key at any depth that is an authorization field."""
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if is_authorization_field(key):
                found.append(here)
            found.extend(find_authorization_fields(item, here))
    elif isinstance(value, list | tuple | set | frozenset):
        for index, item in enumerate(value):
            found.extend(find_authorization_fields(item, f"{path}[{index}]"))
    return found


def _redact(value: Any) -> Any:
    """The arguments with the values of authorization fields replaced, for the audit record."""
    if isinstance(value, Mapping):
        return {str(k): "<redacted>" if is_authorization_field(k) else _redact(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(item) for item in value]
    return value


# --------------------------------------------------------------------------- normalisation


def _normalise_value(value: Any) -> Any:
    """Sorted keys, stripped and whitespace-collapsed strings, lists kept in order."""
    if isinstance(value, Mapping):
        return {str(k): _normalise_value(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_normalise_value(item) for item in value]
    if isinstance(value, str):
        return " ".join(value.split())
    return value


def _summarise_validation(tool: str, exc: ValidationError) -> str:
    parts: list[str] = []
    for error in exc.errors(include_url=False)[:_MAX_DETAIL_ERRORS]:
        loc = ".".join(str(part) for part in error["loc"]) or "arguments"
        parts.append(f"{loc}: {error['msg']}")
    more = exc.error_count() - len(parts)
    if more > 0:
        parts.append(f"{more} more")
    return f"{tool}: " + "; ".join(parts)


def _short_error(exc: BaseException) -> str:
    """One line, no traceback: the message of a groundgate error, else `Type: message`."""
    message = " ".join(str(exc).split())
    if not isinstance(exc, GroundgateError):
        message = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    message = message or type(exc).__name__
    return message if len(message) <= _MAX_ERROR_CHARS else message[: _MAX_ERROR_CHARS - 1] + "…"


# --------------------------------------------------------------------------- the registry


class _Entry:
    __slots__ = ("fn", "project_of", "spec")

    def __init__(
        self,
        spec: ToolSpec,
        fn: Callable[[Any, ExecutionContext], ToolOutput],
        project_of: Callable[[Any], str | None] | None,
    ) -> None:
        self.spec = spec
        self.fn = fn
        self.project_of = project_of


class _Parsed:
    """A call that passed validation: its entry, parsed model and normalised arguments."""

    __slots__ = ("args", "arguments", "entry")

    def __init__(self, entry: _Entry, args: BaseModel, arguments: dict[str, Any]) -> None:
        self.entry = entry
        self.args = args
        self.arguments = arguments


class ToolRegistry:
    """Registered tools, plan validation and bounded execution (see the module docstring)."""

    def __init__(self, *, max_workers: int = 8) -> None:
        if max_workers < 1:
            raise UsageError("max_workers must be at least 1")
        self._entries: dict[str, _Entry] = {}
        self._described: list[dict[str, Any]] | None = None
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="groundgate-tool")
        self._closed = False
        self._lock = threading.Lock()
        self._late_dropped = 0

    # ------------------------------------------------------------------ registration

    def register(
        self,
        spec: ToolSpec,
        fn: ToolFunction[ArgsT],
        *,
        project_of: Callable[[ArgsT], str | None] | None = None,
    ) -> None:
        """Register a tool. `fn` receives the parsed `spec.argument_model` and the server's context.

        Raises `UsageError` for a duplicate or malformed name, an unknown policy, a non-positive
        timeout, an argument model that does not forbid extra fields, or one that declares an
        authorization field (those come only from the `ExecutionContext`).
        """
        if not _TOOL_NAME.match(spec.name):
            raise UsageError(f"invalid tool name {spec.name!r}")
        if spec.name in self._entries:
            raise UsageError(f"tool {spec.name!r} is already registered")
        if spec.authorization_policy not in POLICIES:
            raise UsageError(
                f"tool {spec.name!r}: unknown authorization policy {spec.authorization_policy!r}"
                f" (known: {', '.join(sorted(POLICIES))})"
            )
        if not spec.timeout_seconds > 0:
            raise UsageError(f"tool {spec.name!r}: timeout_seconds must be positive")
        model = spec.argument_model
        if model.model_config.get("extra") != "forbid":
            raise UsageError(f"tool {spec.name!r}: argument model {model.__name__} must use extra='forbid'")
        for name, field in model.model_fields.items():
            for key in (name, field.alias, field.validation_alias):
                if isinstance(key, str) and is_authorization_field(key):
                    raise UsageError(
                        f"tool {spec.name!r}: argument {key!r} is an authorization field;"
                        " it comes from the ExecutionContext, never from arguments"
                    )
        if project_of is not None and spec.authorization_policy != "project":
            raise UsageError(f"tool {spec.name!r}: project_of is only meaningful with policy 'project'")
        self._entries[spec.name] = _Entry(spec, fn, project_of)
        self._described = None

    def specs(self) -> list[ToolSpec]:
        """The registered specs, in registration order."""
        return [entry.spec for entry in self._entries.values()]

    def get(self, name: str) -> ToolSpec:
        """The spec of a registered tool; `UsageError` when unknown."""
        try:
            return self._entries[name].spec
        except KeyError:
            raise UsageError(f"unknown tool {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self.specs())

    def __len__(self) -> int:
        return len(self._entries)

    def describe_for_model(self) -> list[dict[str, Any]]:
        """What a planner model may see: name, kind, description and the arguments' JSON schema.

        Nothing about the `ExecutionContext` or the authorization policy is included. Built once
        per set of registered tools (a JSON schema per tool costs about a millisecond, every run asked
        for it). Each call gets its own list and top-level dicts; the `parameters` schemas are shared
        and read-only (a deep copy per run cost more than building them).
        """
        if self._described is None:
            self._described = [
                {
                    "name": entry.spec.name,
                    "kind": entry.spec.kind.value,
                    "description": entry.spec.description,
                    "parameters": entry.spec.argument_model.model_json_schema(),
                }
                for entry in self._entries.values()
            ]
        return [dict(tool) for tool in self._described]

    # ------------------------------------------------------------------ validation

    def _parse(self, call: ToolCall) -> _Parsed | tuple[ReasonCode, str]:
        auth = find_authorization_fields(call.arguments)
        if auth:
            return (
                ReasonCode.AUTHORIZATION_FIELD_IN_PLAN,
                f"{call.tool}: authorization field(s) in arguments: {', '.join(auth)}",
            )
        entry = self._entries.get(call.tool)
        if entry is None:
            return ReasonCode.UNKNOWN_TOOL, f"unknown tool {call.tool!r}"
        try:
            args = entry.spec.argument_model.model_validate(call.arguments)
        except ValidationError as exc:
            return ReasonCode.INVALID_ARGUMENTS, _summarise_validation(call.tool, exc)
        arguments = args.model_dump(mode="json", exclude_none=True)
        return _Parsed(entry, args, arguments)

    def validate_plan(self, calls: Sequence[ToolCall]) -> PlanCheck:
        """Check every call of a plan; one bad call refuses the plan whole (no calls returned).

        Authorization fields are looked for in the whole plan first, so that reason wins.
        """
        for index, call in enumerate(calls):
            auth = find_authorization_fields(call.arguments)
            if auth:
                return PlanCheck(
                    ok=False,
                    reason_code=ReasonCode.AUTHORIZATION_FIELD_IN_PLAN,
                    detail=f"{call.tool}: authorization field(s) in arguments: {', '.join(auth)}",
                    call_index=index,
                )
        parsed: list[ToolCall] = []
        for index, call in enumerate(calls):
            outcome = self._parse(call)
            if isinstance(outcome, tuple):
                code, detail = outcome
                return PlanCheck(ok=False, reason_code=code, detail=detail, call_index=index)
            parsed.append(ToolCall(tool=call.tool, arguments=outcome.arguments, purpose=call.purpose))
        return PlanCheck(ok=True, reason_code=ReasonCode.OK, calls=tuple(parsed))

    def call_key(self, call: ToolCall) -> str:
        """A stable hash of the tool name and normalised arguments, to refuse the same call twice.

        Arguments are parsed by the tool's model when they validate (so defaults and omitted
        defaults agree, and model normalisers such as upper-cased order ids apply); keys are
        sorted and strings stripped and whitespace-collapsed either way. `purpose` is ignored.
        """
        outcome = self._parse(call)
        arguments = call.arguments if isinstance(outcome, tuple) else outcome.arguments
        canonical = json.dumps(
            {"tool": call.tool, "arguments": _normalise_value(arguments)},
            sort_keys=True,
            ensure_ascii=False,
            separators=(",", ":"),
            default=str,
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    # ------------------------------------------------------------------ execution

    @property
    def late_results_dropped(self) -> int:
        """How many timed-out calls finished later; their outputs were discarded unread."""
        with self._lock:
            return self._late_dropped

    def _drop_late(self, future: Future[ToolOutput]) -> None:
        if future.cancelled():
            return
        with self._lock:
            self._late_dropped += 1
        _log.info("dropped the late result of a timed-out tool call")

    def execute(
        self,
        call: ToolCall,
        ctx: ExecutionContext,
        *,
        run_id: str,
        round: int,
        invocation_id: str | None = None,
    ) -> ToolResult:
        """Validate, authorize and run one call; every failure is a `ToolResult`, never an exception.

        Raises `UsageError` only when the registry is closed.
        """
        if self._closed:
            raise UsageError("the tool registry is closed")
        invocation = invocation_id or uuid.uuid4().hex

        def failed(
            status: ToolStatus, code: ReasonCode, detail: str, arguments: dict[str, Any], latency: float
        ) -> ToolResult:
            return ToolResult(
                invocation_id=invocation,
                tool=call.tool,
                status=status,
                run_id=run_id,
                round=round,
                arguments=arguments,
                error=f"{code.value}: {detail}",
                latency_ms=latency,
            )

        started = time.perf_counter()

        def elapsed() -> float:
            return round_ms(time.perf_counter() - started)

        outcome = self._parse(call)
        if isinstance(outcome, tuple):
            code, detail = outcome
            return failed(ToolStatus.ERROR, code, detail, _redact(call.arguments), elapsed())

        denial = self._authorize(outcome, ctx)
        if denial is not None:
            return failed(ToolStatus.DENIED, ReasonCode.POLICY_DENIED, denial, outcome.arguments, elapsed())

        spec = outcome.entry.spec
        try:
            future = self._pool.submit(outcome.entry.fn, outcome.args, ctx)
        except RuntimeError as exc:  # the pool was shut down concurrently
            raise UsageError("the tool registry is closed") from exc
        done, _ = wait([future], timeout=spec.timeout_seconds)
        if not done:
            if not future.cancel():
                future.add_done_callback(self._drop_late)
            return failed(
                ToolStatus.TIMEOUT,
                ReasonCode.TOOL_TIMEOUT,
                f"{spec.name} did not finish within {spec.timeout_seconds:g} s; a late result is dropped",
                outcome.arguments,
                elapsed(),
            )
        error = future.exception()
        if error is not None:
            _log.warning("tool %s failed", spec.name, exc_info=error)
            return failed(
                ToolStatus.ERROR, ReasonCode.TOOL_FAILED, _short_error(error), outcome.arguments, elapsed()
            )
        output = future.result()
        if not isinstance(output, ToolOutput):
            return failed(
                ToolStatus.ERROR,
                ReasonCode.INVALID_TOOL_OUTPUT,
                f"{spec.name} returned {type(output).__name__}, not ToolOutput",
                outcome.arguments,
                elapsed(),
            )
        return ToolResult(
            invocation_id=invocation,
            tool=spec.name,
            status=output.status,
            run_id=run_id,
            round=round,
            arguments=outcome.arguments,
            documents=list(output.documents),
            facts=list(output.facts),
            gaps=list(output.gaps),
            conflicts=list(output.conflicts),
            observation=output.observation,
            retrieval_layers=list(output.retrieval_layers),
            relevance_levels=list(output.relevance_levels),
            source_documents=list(output.source_documents),
            # A tool cannot know (or forge) its invocation id: the registry stamps every ref.
            evidence_refs=[
                EvidenceRef.model_validate({**ref.model_dump(), "invocation_id": invocation})
                for ref in output.evidence_refs
            ],
            latency_ms=elapsed(),
        )

    def _authorize(self, parsed: _Parsed, ctx: ExecutionContext) -> str | None:
        """None when the spec's policy admits `ctx`, else why not."""
        policy = parsed.entry.spec.authorization_policy
        if policy == "public":
            return None
        if not ctx.tenant.strip():
            return "no tenant in the execution context"
        if policy == "tenant":
            return None
        # policy == "project"
        try:
            target = parsed.entry.project_of(parsed.args) if parsed.entry.project_of else ctx.project
        except Exception as exc:  # a faulty project_of denies; it never escapes execute
            return f"could not determine the target project ({_short_error(exc)})"
        if not target:
            return "no target project for a project-scoped tool"
        if ctx.allowed_projects and target not in ctx.allowed_projects:
            return "the target project is not among the caller's allowed projects"
        return None

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Stop accepting calls and release the workers (running tools are not waited for)."""
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> ToolRegistry:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def round_ms(seconds: float) -> float:
    """Seconds as milliseconds with two decimals."""
    return round(seconds * 1000.0, 2)
