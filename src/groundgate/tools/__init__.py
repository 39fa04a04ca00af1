"""Tools: the registry (schemas, authorization policies, bounded execution) and built-in tools.

The built-in stores and tools live in `groundgate.tools.builtin` (`register_builtin_tools`).
"""

from groundgate.tools.registry import (
    POLICIES,
    PlanCheck,
    ReasonCode,
    ToolArguments,
    ToolFunction,
    ToolRegistry,
    find_authorization_fields,
    is_authorization_field,
)

__all__ = [
    # the registry
    "POLICIES",
    "PlanCheck",
    "ReasonCode",
    "ToolArguments",
    "ToolFunction",
    "ToolRegistry",
    "find_authorization_fields",
    "is_authorization_field",
]
