// groundgate's web page: an answer as the chat pane shows it. Its Markdown (parsed by markdown.js)
// built from text nodes, each claim followed by its citation markers (a marker opens the source's
// excerpt), the gaps as their own box and the sources as a list. Loaded by index.html before
// app.js, which calls window.GroundgateAnswer.create({ h, t }).
"use strict";

(function (root) {
  // Headings the composer's templates use (groundgate.compose.templates), to lay the answer out.
  const SOURCES_HEADINGS = ["引用：", "Sources:"];
  const GAP_HEADINGS = ["当前缺口：", "Current gaps:"];

  function create({ h, t }) {
    // The answer body without the sources block; the gaps section is shown as its own box.
    function answerBody(answer) {
      let body = answer;
      for (const heading of SOURCES_HEADINGS) {
        const at = body.lastIndexOf(`\n\n${heading}\n`);
        if (at >= 0) body = body.slice(0, at);
      }
      return body
        .split(/\n{2,}/)
        .filter((block) => !GAP_HEADINGS.some((heading) => block.startsWith(heading)));
    }

    // One claim: text followed by its citation markers; a marker toggles the source excerpt.
    function renderClaims(text, citations, holder) {
      const byNumber = new Map(citations.map((c) => [c.number, c]));
      const out = [];
      const pattern = /((?:\[\d+\])+)/g;
      let last = 0;
      let match;
      while ((match = pattern.exec(text)) !== null) {
        const claimText = text.slice(last, match.index);
        const numbers = match[1].match(/\d+/g).map(Number);
        const claim = h("span", { class: "claim", dataset: { testid: "claim" } }, markdownInline(claimText));
        for (const number of numbers) {
          const citation = byNumber.get(number);
          if (!citation) {
            claim.append(h("sup", { class: "cite missing" }, `[${number}]`));
            continue;
          }
          claim.append(
            h(
              "button",
              {
                type: "button",
                class: "cite",
                title: citation.source,
                "aria-expanded": "false",
                dataset: { testid: "cite", number: String(number) },
                onclick: (event) => toggleExcerpt(event.currentTarget, citation, holder),
              },
              String(number),
            ),
          );
        }
        out.push(claim);
        last = match.index + match[0].length;
      }
      if (last < text.length) out.push(h("span", { class: "claim plain" }, markdownInline(text.slice(last))));
      return out;
    }

    function excerptCard(citation, testid = "excerpt") {
      return h(
        "blockquote",
        { class: "excerpt", dataset: { testid, number: String(citation.number) } },
        h("div", { class: "excerpt-source" }, h("span", { class: "cite static" }, String(citation.number)), citation.source),
        h("div", { class: "excerpt-text" }, citation.excerpt),
        h("div", { class: "excerpt-meta muted" }, `${citation.citationId} · invocation ${citation.invocationId.slice(0, 12)}`),
      );
    }

    function toggleExcerpt(button, citation, holder) {
      const open = holder.querySelector(`[data-testid="excerpt"][data-number="${citation.number}"]`);
      for (const other of holder.parentElement.querySelectorAll(`button.cite[data-number="${citation.number}"]`)) {
        other.setAttribute("aria-expanded", String(!open));
      }
      if (open) {
        open.remove();
        return;
      }
      holder.append(excerptCard(citation));
    }

    // Markdown in an answer (an answer model may write it) becomes elements built from text nodes only
    // (markdown.js parses, these build): `<script>` in an answer stays text.
    function markdownInline(text) {
      return inlineNodes(window.GroundgateMarkdown.parseInline(text));
    }

    function inlineNodes(tokens) {
      return tokens.map((token) => {
        switch (token.type) {
          case "code":
            return h("code", {}, token.text);
          case "strong":
            return h("strong", {}, inlineNodes(token.children));
          case "em":
            return h("em", {}, inlineNodes(token.children));
          case "link":
            return h("a", { href: token.href, rel: "noopener noreferrer nofollow", target: "_blank" }, inlineNodes(token.children));
          default:
            return token.text;
        }
      });
    }

    function renderAnswer(result) {
      const citations = result.citations || [];
      const box = h("div", { class: "answer-body", dataset: { testid: "answer" } });
      for (const block of window.GroundgateMarkdown.parseBlocks(answerBody(result.answer || "").join("\n\n"))) {
        const holder = h("div", { class: "excerpts" });
        const claims = (text) => renderClaims(text, citations, holder);
        if (block.type === "heading") {
          // `#` is a section of the answer, not the page's title: h3 and below.
          box.append(h(`h${Math.min(6, block.level + 2)}`, { class: "answer-heading" }, claims(block.text)));
        } else if (block.type === "list") {
          const attrs = block.ordered && block.start !== 1 ? { start: block.start } : {};
          box.append(h(block.ordered ? "ol" : "ul", attrs, block.items.map((item) => h("li", {}, claims(item)))));
        } else if (block.type === "code") {
          box.append(h("pre", { class: "answer-code" }, h("code", {}, block.text)));
        } else if (block.type === "quote") {
          box.append(h("blockquote", { class: "answer-quote" }, claims(block.text)));
        } else if (block.type === "rule") {
          box.append(h("hr", {}));
        } else {
          // A lead line ending in a colon ("已确认信息：", "Confirmed:") heads the list after it.
          box.append(h("p", /[：:]$/.test(block.text.trim()) ? { class: "subhead" } : {}, claims(block.text)));
        }
        box.append(holder);
      }
      return box;
    }

    function renderSources(citations) {
      if (!citations.length) return null;
      return h(
        "details",
        { class: "sources", dataset: { testid: "sources" } },
        h("summary", {}, `${t("sources")} (${citations.length})`),
        h(
          "ol",
          {},
          citations.map((c) =>
            h(
              "li",
              { value: c.number },
              h("details", { dataset: { testid: "source" } }, h("summary", {}, c.source), excerptCard(c, "source-excerpt")),
            ),
          ),
        ),
      );
    }

    function renderGaps(gaps) {
      if (!gaps || !gaps.length) return null;
      return h(
        "div",
        { class: "gaps", dataset: { testid: "gaps" } },
        h("strong", {}, t("gaps")),
        h("ul", {}, gaps.map((gap) => h("li", {}, gap))),
      );
    }

    return { renderAnswer, renderSources, renderGaps };
  }

  root.GroundgateAnswer = { create };
})(window);
