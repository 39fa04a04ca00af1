"""Test helpers that ship with groundgate, for users' own tests: a real local OpenAI-compatible server."""

from groundgate.testing.openai_server import OpenAICompatibleServer, ScriptedReply, unused_base_url

__all__ = ["OpenAICompatibleServer", "ScriptedReply", "unused_base_url"]
