"""The page's Markdown reader (`web/markdown.js`) under Node: what an answer's Markdown becomes.

It only parses; the page builds elements from text nodes (the browser test checks that HTML in an
answer stays text). Skipped without `node`."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

MARKDOWN_JS = Path(__file__).resolve().parents[2] / "src" / "groundgate" / "web" / "markdown.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="no node on PATH")


def _parse(function: str, text: str) -> Any:
    script = f"const md = require({json.dumps(str(MARKDOWN_JS))}); process.stdout.write(JSON.stringify(md.{function}(JSON.parse(process.argv[1]))));"
    done = subprocess.run(
        [NODE or "node", "-e", script, json.dumps(text)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout)


def _text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


@pytest.mark.parametrize(
    ("markdown", "blocks"),
    [
        ("## Root cause", [{"type": "heading", "level": 2, "text": "Root cause"}]),
        (
            "one\ntwo\n\nthree",
            [{"type": "paragraph", "text": "one\ntwo"}, {"type": "paragraph", "text": "three"}],
        ),
        (
            "已确认信息：\n- a[1]\n- b",
            [
                {"type": "paragraph", "text": "已确认信息："},
                {"type": "list", "ordered": False, "start": 1, "items": ["a[1]", "b"]},
            ],
        ),
        ("3. c\n4) d\n   more", [{"type": "list", "ordered": True, "start": 3, "items": ["c", "d\nmore"]}]),
        ("```sql\n<b>select</b>\n```", [{"type": "code", "language": "sql", "text": "<b>select</b>"}]),
        ("> quoted\n> twice", [{"type": "quote", "text": "quoted\ntwice"}]),
        ("---", [{"type": "rule"}]),
        ("<script>x</script>", [{"type": "paragraph", "text": "<script>x</script>"}]),
    ],
    ids=[
        "heading",
        "paragraphs",
        "lead line and list",
        "numbered list",
        "code",
        "quote",
        "rule",
        "html is text",
    ],
)
def test_blocks(markdown: str, blocks: list[dict[str, Any]]) -> None:
    assert _parse("parseBlocks", markdown) == blocks


@pytest.mark.slow
@pytest.mark.parametrize(
    ("markdown", "tokens"),
    [
        ("a **b** c", [_text("a "), {"type": "strong", "children": [_text("b")]}, _text(" c")]),
        ("*x*", [{"type": "em", "children": [_text("x")]}]),
        ("`a_b`", [{"type": "code", "text": "a_b"}]),
        ("ERR_POOL_EXHAUSTED and __init__", [_text("ERR_POOL_EXHAUSTED and __init__")]),
        ("2 * 3 * 4", [_text("2 * 3 * 4")]),
        (
            "[doc](https://e.example/a)",
            [{"type": "link", "href": "https://e.example/a", "children": [_text("doc")]}],
        ),
        ("[x](javascript:alert)", [_text("x")]),
        ("\\*not em\\*", [_text("*not em*")]),
        ("see [1][2]", [_text("see [1][2]")]),
    ],
    ids=[
        "strong",
        "emphasis",
        "code",
        "underscores are not emphasis",
        "a lone star is text",
        "link",
        "a javascript link is its text",
        "escaped markers",
        "citation markers stay text",
    ],
)
def test_inline(markdown: str, tokens: list[dict[str, Any]]) -> None:
    assert _parse("parseInline", markdown) == tokens
