"""The `get_current_datetime` tool, and the UTC time handling every built-in store shares.

Times are normalised to UTC everywhere: a timestamp without an offset is taken as UTC, one with an
offset is converted. Stores keep integer microseconds since the epoch (sortable, exact) and render
times as ISO 8601 with a `Z`: `2026-03-14T14:05:03.120Z` (milliseconds when present, microseconds
only when needed, none for whole seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Annotated

from pydantic import AfterValidator

from groundgate.contracts import ExecutionContext, ToolKind, ToolOutput, ToolSpec, VerifiedFact
from groundgate.tools.registry import ToolArguments, ToolFunction

__all__ = [
    "CLOCK_TOOL",
    "Clock",
    "NoArguments",
    "UtcDatetime",
    "current_datetime_tool",
    "format_utc",
    "from_epoch_us",
    "parse_timestamp",
    "to_epoch_us",
    "to_utc",
    "utc_now",
]

#: Name of the clock tool.
CLOCK_TOOL = "get_current_datetime"

#: A source of the current time (injectable for tests).
Clock = Callable[[], datetime]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def utc_now() -> datetime:
    """The current time, aware, in UTC."""
    return datetime.now(UTC)


def to_utc(value: datetime) -> datetime:
    """An aware UTC datetime; a naive one is taken to be UTC already."""
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


#: A datetime argument normalised to UTC (naive input is read as UTC).
UtcDatetime = Annotated[datetime, AfterValidator(to_utc)]


def parse_timestamp(value: object) -> datetime:
    """An ISO 8601 string (`Z`, offsets, `T` or space, `.` or `,` fractions) or epoch number → UTC.

    Epoch numbers are seconds, or milliseconds when larger than 10^11. Raises `ValueError`.
    """
    if isinstance(value, bool):
        raise ValueError("a boolean is not a timestamp")
    if isinstance(value, int | float):
        seconds = value / 1000.0 if abs(value) > 1e11 else float(value)
        return _EPOCH + timedelta(seconds=seconds)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"not a timestamp: {value!r}")
    text = value.strip()
    if text.endswith(("z", "Z")):
        text = text[:-1] + "+00:00"
    return to_utc(datetime.fromisoformat(text))


def to_epoch_us(value: datetime) -> int:
    """Microseconds since the epoch (exact integer arithmetic)."""
    delta = to_utc(value) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_epoch_us(value: int) -> datetime:
    """The inverse of `to_epoch_us`."""
    return _EPOCH + timedelta(microseconds=value)


def format_utc(value: datetime) -> str:
    """`2026-03-14T14:05:03.120Z`; whole seconds without a fraction, microseconds only if needed."""
    utc = to_utc(value)
    base = utc.strftime("%Y-%m-%dT%H:%M:%S")
    micro = utc.microsecond
    if micro == 0:
        return base + "Z"
    if micro % 1000 == 0:
        return f"{base}.{micro // 1000:03d}Z"
    return f"{base}.{micro:06d}Z"


class NoArguments(ToolArguments):
    """Arguments of a tool that takes none: any argument is an error."""


def current_datetime_tool(clock: Clock | None = None) -> tuple[ToolSpec, ToolFunction[NoArguments]]:
    """The auxiliary clock tool: the current UTC time as a `clock.now` fact.

    Policy `public`. The fact's value is the ISO time (`format_utc`), with a 60 s TTL.
    """
    now = clock or utc_now
    spec = ToolSpec(
        name=CLOCK_TOOL,
        description=(
            "Current date and time in UTC (ISO 8601). Use it to resolve relative dates such as"
            " 'today', 'yesterday' or 'the last hour' before querying logs or metrics."
        ),
        argument_model=NoArguments,
        kind=ToolKind.AUXILIARY,
        authorization_policy="public",
        timeout_seconds=1.0,
    )

    def run(args: NoArguments, ctx: ExecutionContext) -> ToolOutput:
        current = to_utc(now())
        text = format_utc(current)
        fact = VerifiedFact(
            fact_ref=f"clock:{text}",
            fact_type="clock.now",
            value=text,
            source_system="clock",
            queried_at=current,
            ttl_seconds=60,
            scope="utc",
        )
        return ToolOutput(facts=[fact], observation=f"current time {text}")

    return spec, run
