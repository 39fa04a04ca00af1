"""Model seam: the `Model` protocol and its implementations."""

from groundgate.models.base import Message, Model, ModelResponse, Role, Usage

__all__ = ["Message", "Model", "ModelResponse", "Role", "Usage"]
