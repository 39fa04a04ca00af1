// groundgate — a small Markdown reader for answers (an answer model may write Markdown).
//
// It only *parses*: `parseBlocks` and `parseInline` return plain objects, and the page (app.js) builds
// DOM nodes from them with text nodes only — no string of HTML is ever made, so whatever an answer
// holds (`<script>`, `<img onerror>`) is shown as text, never run. Links keep only http(s) and
// mailto targets; anything else (`javascript:`) is shown as its text.
//
// Blocks: ATX headings (`# …`), fenced code (```), block quotes (`> …`), bullet (`-`, `*`, `+`) and
// numbered (`1.`, `1)`) lists, horizontal rules, paragraphs. Inline: `code`, **strong**, *emphasis*,
// [links](https://…). Underscores are never emphasis: error codes and identifiers
// (`ERR_POOL_EXHAUSTED`, `max_file_bytes`) are full of them.
//
// Loaded by index.html before app.js (window.GroundgateMarkdown); also a CommonJS module, so the
// tests can run the parser under Node without a browser.
"use strict";

(function (root) {
  const FENCE = /^\s{0,3}(```+|~~~+)\s*([\w+-]*)\s*$/;
  const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
  const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
  const QUOTE = /^\s{0,3}>\s?(.*)$/;
  const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
  const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
  const CONTINUATION = /^\s{2,}\S/;
  const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

  function listItem(line) {
    const bullet = BULLET.exec(line);
    if (bullet && !RULE.test(line)) return { ordered: false, text: bullet[1] };
    const numbered = NUMBERED.exec(line);
    if (numbered) return { ordered: true, start: Number(numbered[1]), text: numbered[2] };
    return null;
  }

  // A block starts here (and so ends a paragraph): heading, fence, rule, quote or list item.
  function startsBlock(line) {
    return HEADING.test(line) || FENCE.test(line) || RULE.test(line) || QUOTE.test(line) || listItem(line) !== null;
  }

  function parseBlocks(text) {
    const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
    const blocks = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (!line.trim()) {
        i += 1;
        continue;
      }
      const fence = FENCE.exec(line);
      if (fence) {
        const body = [];
        i += 1;
        while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
        i += 1; // the closing fence (or the end of the text)
        blocks.push({ type: "code", language: fence[2], text: body.join("\n") });
        continue;
      }
      const heading = HEADING.exec(line);
      if (heading) {
        blocks.push({ type: "heading", level: heading[1].length, text: heading[2] });
        i += 1;
        continue;
      }
      if (RULE.test(line)) {
        blocks.push({ type: "rule" });
        i += 1;
        continue;
      }
      if (QUOTE.test(line)) {
        const body = [];
        while (i < lines.length && QUOTE.test(lines[i])) body.push(QUOTE.exec(lines[i++])[1]);
        blocks.push({ type: "quote", text: body.join("\n") });
        continue;
      }
      const first = listItem(line);
      if (first) {
        const list = { type: "list", ordered: first.ordered, start: first.start || 1, items: [] };
        while (i < lines.length) {
          const item = listItem(lines[i]);
          if (item && item.ordered === list.ordered) {
            list.items.push(item.text);
          } else if (!item && CONTINUATION.test(lines[i]) && list.items.length) {
            list.items[list.items.length - 1] += "\n" + lines[i].trim();
          } else {
            break;
          }
          i += 1;
        }
        blocks.push(list);
        continue;
      }
      const body = [line];
      i += 1;
      while (i < lines.length && lines[i].trim() && !startsBlock(lines[i])) body.push(lines[i++]);
      blocks.push({ type: "paragraph", text: body.join("\n") });
    }
    return blocks;
  }

  // Inline spans, in the order they are tried at each position.
  const INLINE = [
    { type: "code", pattern: /^(`+)([\s\S]*?[^`])\1(?!`)/, make: (m) => ({ type: "code", text: m[2].trim() }) },
    {
      type: "link",
      pattern: /^\[([^\]\n]+)\]\(\s*([^)\s]+)\s*\)/,
      make: (m) =>
        SAFE_HREF.test(m[2])
          ? { type: "link", href: m[2], children: parseInline(m[1]) }
          : { type: "text", text: m[1] },
    },
    { type: "strong", pattern: /^\*\*(?=\S)([\s\S]*?\S)\*\*/, make: (m) => ({ type: "strong", children: parseInline(m[1]) }) },
    { type: "em", pattern: /^\*(?=[^\s*])([\s\S]*?[^\s*])\*(?!\*)/, make: (m) => ({ type: "em", children: parseInline(m[1]) }) },
  ];

  function parseInline(text) {
    const out = [];
    let plain = "";
    let i = 0;
    const source = String(text);
    const pushText = (value) => {
      if (!value) return;
      if (out.length && out[out.length - 1].type === "text") out[out.length - 1].text += value;
      else out.push({ type: "text", text: value });
    };
    while (i < source.length) {
      const ch = source[i];
      if (ch === "\\" && i + 1 < source.length && /[\\`*_[\]()#>!-]/.test(source[i + 1])) {
        plain += source[i + 1]; // an escaped marker is the character itself
        i += 2;
        continue;
      }
      let matched = null;
      if (ch === "`" || ch === "[" || ch === "*") {
        for (const rule of INLINE) {
          const m = rule.pattern.exec(source.slice(i));
          if (m) {
            matched = { node: rule.make(m), length: m[0].length };
            break;
          }
        }
      }
      if (!matched) {
        plain += ch;
        i += 1;
        continue;
      }
      pushText(plain);
      plain = "";
      if (matched.node.type === "text") pushText(matched.node.text);
      else out.push(matched.node);
      i += matched.length;
    }
    pushText(plain);
    return out;
  }

  const api = { parseBlocks, parseInline, SAFE_HREF };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.GroundgateMarkdown = api;
})(typeof window !== "undefined" ? window : globalThis);
