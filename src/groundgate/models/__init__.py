"""Model seam: the `Model` protocol and its implementations.

`OpenAIModel` and `OpenAIEmbeddings` are imported lazily: the `openai` SDK takes about a second to
import, and offline use never needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate.errors import ScriptExhaustedError
from groundgate.models.base import Message, Model, ModelResponse, Role, Usage
from groundgate.models.scripted import RecordedRequest, ScriptedModel

if TYPE_CHECKING:
    from groundgate.models.embeddings import OpenAIEmbeddings
    from groundgate.models.openai import OpenAIModel

__all__ = [
    # the Model protocol
    "Message",
    "Model",
    "ModelResponse",
    "Role",
    "Usage",
    # embeddings (loaded lazily)
    "OpenAIEmbeddings",
    # OpenAI-compatible (loaded lazily)
    "OpenAIModel",
    # scripted (tests)
    "RecordedRequest",
    "ScriptExhaustedError",
    "ScriptedModel",
]


def __getattr__(name: str) -> Any:
    if name == "OpenAIModel":
        from groundgate.models.openai import OpenAIModel

        return OpenAIModel
    if name == "OpenAIEmbeddings":
        from groundgate.models.embeddings import OpenAIEmbeddings

        return OpenAIEmbeddings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
