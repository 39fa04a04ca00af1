"""Self-evaluation container merge (docs/design.md §1 invariant 10, docs/design.md §4 `SelfEvaluationMergeService`).

Pure functions: parse what is stored (legacy flat JSON included), put one writer's slot, and check
sizes. The repository function `groundgate.store.repositories.merge_self_evaluation_slot` does the
read-modify-write under a row lock.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from groundgate.contracts.verification import (
    AiOpsRuleEvaluation,
    RuleEvaluation,
    SelfEvaluation,
    VerifierEvaluation,
)
from groundgate.errors import InvalidInputError

SlotName = Literal["rule_evaluation", "verifier_evaluation", "aiops_rule_evaluation"]
SLOTS: tuple[SlotName, ...] = ("rule_evaluation", "verifier_evaluation", "aiops_rule_evaluation")
SLOT_MODELS: dict[str, type[BaseModel]] = {
    "rule_evaluation": RuleEvaluation,
    "verifier_evaluation": VerifierEvaluation,
    "aiops_rule_evaluation": AiOpsRuleEvaluation,
}
MAX_SELF_EVALUATION_BYTES = 1_000_000
RULE_LEGACY_KEYS = frozenset({"evidence_score", "source", "factors"})
VERIFIER_LEGACY_KEYS = frozenset({"verdict", "groundedness_score"})


def _check_size(text: str, what: str) -> None:
    size = len(text.encode("utf-8"))
    if size > MAX_SELF_EVALUATION_BYTES:
        raise InvalidInputError(f"{what} is {size} bytes, over the {MAX_SELF_EVALUATION_BYTES}-byte limit")


def wrap_legacy(data: dict[str, Any]) -> dict[str, Any]:
    """Wrap legacy flat keys into their slot: `evidence_score` → rule, `verdict`/`groundedness_score` → verifier."""
    container: dict[str, Any] = {k: v for k, v in data.items() if k in SLOTS}
    flat = {k: v for k, v in data.items() if k not in SLOTS}
    if "evidence_score" in flat and "rule_evaluation" not in container:
        container["rule_evaluation"] = {k: flat.pop(k) for k in list(flat) if k in RULE_LEGACY_KEYS}
    if VERIFIER_LEGACY_KEYS & flat.keys() and "verifier_evaluation" not in container:
        container["verifier_evaluation"] = flat
        flat = {}
    container.update(flat)  # unknown keys stay at the root (nothing is lost)
    return container


def load_container(raw: object, *, what: str = "self_evaluation") -> dict[str, Any]:
    """Parse a stored value (None, JSON text or a decoded object) into a slot container.

    Raises `InvalidInputError` for non-JSON, non-object or oversized values.
    """
    if raw is None or raw == "":
        return {}
    if isinstance(raw, bytes | bytearray):
        raw = raw.decode("utf-8", errors="replace")
    if isinstance(raw, str):
        _check_size(raw, what)
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{what} is not valid JSON ({exc.msg} at position {exc.pos})") from exc
    else:
        _check_size(json.dumps(raw, ensure_ascii=False, default=str), what)
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{what} must be a JSON object, got {type(raw).__name__}")
    return wrap_legacy(raw)


def put_slot(container: dict[str, Any], slot: SlotName, value: BaseModel | dict[str, Any]) -> dict[str, Any]:
    """Return a new container with `slot` replaced and every other slot kept."""
    if slot not in SLOTS:
        raise InvalidInputError(f"unknown self_evaluation slot {slot!r}; expected one of {', '.join(SLOTS)}")
    model = SLOT_MODELS[slot]
    try:
        payload = value if isinstance(value, model) else model.model_validate(value)
    except ValidationError as exc:
        raise InvalidInputError(
            f"invalid {slot}: {exc.error_count()} error(s): {exc.errors()[0]['msg']}"
        ) from exc
    merged = dict(container)
    merged[slot] = payload.model_dump(mode="json")
    _check_size(json.dumps(merged, ensure_ascii=False), "merged self_evaluation")
    return merged


def parse_self_evaluation(container: dict[str, Any]) -> SelfEvaluation:
    """Best-effort typed view; a legacy slot that does not fit its contract is kept as an extra key."""
    try:
        return SelfEvaluation.model_validate(container)
    except ValidationError:
        fitting: dict[str, Any] = {}
        for key, value in container.items():
            model = SLOT_MODELS.get(key)
            if model is None:
                fitting[key] = value
                continue
            try:
                fitting[key] = model.model_validate(value)
            except ValidationError:
                fitting[f"legacy_{key}"] = value
        return SelfEvaluation.model_validate(fitting)
