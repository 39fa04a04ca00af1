"""Test helpers that ship with groundgate, for users' own tests: a real local OpenAI-compatible server,
`groundgate serve` in a subprocess, and evidence items as the tools return them."""

from groundgate.testing.evidence import metric_fact
from groundgate.testing.openai_server import OpenAICompatibleServer, ScriptedReply, unused_base_url
from groundgate.testing.service import free_port, running_service

__all__ = [
    # a local OpenAI-compatible server
    "OpenAICompatibleServer",
    "ScriptedReply",
    "unused_base_url",
    # `groundgate serve` in a subprocess
    "free_port",
    "running_service",
    # evidence items as the tools return them
    "metric_fact",
]
