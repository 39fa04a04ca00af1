// groundgate's web page: the business agent's view ("业务助手 / Business agent", #/agent).
// It asks POST /api/agent/ask and shows the decision (ANSWERED, PARTIAL, NEEDS_INPUT, NO_EVIDENCE,
// CONFLICT), the covered and missing evidence slots, each statement with its citations, the steps,
// what is missing and the clarifying questions. Loaded by index.html before app.js, which calls
// window.GroundgateAgent.create(helpers) with its own h/t/api, so the two share one way of building
// the page: DOM from text nodes only (the Content-Security-Policy forbids inline script and style).
"use strict";

(function (root) {
  // Examples over the bundled HR demo (tenant hrdemo, day 2026-04-15): a policy amount, the user's
  // own tasks, then a reference to an item of that answer.
  const EXAMPLES = {
    "zh-CN": ["一线城市出差住宿标准是多少？", "我本周有哪些待办？差旅报销需要谁审批？", "我有哪些待办？", "第二个任务什么时候截止？"],
    en: ["一线城市出差住宿标准是多少？", "差旅报销需要提供哪些材料？", "我有哪些待办？", "第二个任务什么时候截止？"],
  };

  // The badge tone of each decision: only ANSWERED is a full answer.
  const TONE = { ANSWERED: "ok", PARTIAL: "warn", CONFLICT: "warn", NEEDS_INPUT: "neutral", NO_EVIDENCE: "bad" };

  function create({ h, t, api, newId, canWrite }) {
    const view = { built: false, busy: false, sessionId: newId(), els: {} };

    function decisionBadge(decision) {
      return h(
        "span",
        { class: `badge ${TONE[decision] || "neutral"}`, title: decision, dataset: { testid: "decision-badge", decision } },
        t(`decision.${decision}`),
        h("code", { class: "raw" }, decision),
      );
    }

    function needChip(code, kind) {
      return h("span", { class: `pill ${kind === "covered" ? "ok" : "warn"}`, title: code, dataset: { testid: `${kind}-need`, need: code } }, t(`need.${code}`));
    }

    function slotsBox(result) {
      const covered = result.coveredNeeds || [];
      const missing = result.missingNeeds || [];
      if (!covered.length && !missing.length) return null;
      return h(
        "dl",
        { class: "kv agent-slots", dataset: { testid: "agent-slots" } },
        h("dt", {}, t("agent.covered")),
        h("dd", { dataset: { testid: "covered-needs" } }, covered.length ? covered.map((c) => needChip(c, "covered")) : "–"),
        h("dt", {}, t("agent.missing")),
        h("dd", { dataset: { testid: "missing-needs" } }, missing.length ? missing.map((c) => needChip(c, "missing")) : "–"),
      );
    }

    function excerptCard(citation, number) {
      return h(
        "blockquote",
        { class: "excerpt", dataset: { testid: "agent-excerpt", citationId: citation.citationId } },
        h("div", { class: "excerpt-source" }, h("span", { class: "cite static" }, String(number)), citation.source),
        h("div", { class: "excerpt-text" }, citation.excerpt || ""),
        h("div", { class: "excerpt-meta muted" }, `${citation.citationId} · ${citation.evidenceType || ""}`),
      );
    }

    // A statement or step: its text, then one button per citation that opens the cited excerpt.
    function citedLine(tag, item, byId, testid) {
      const holder = h("div", { class: "excerpts" });
      const line = h(tag, { class: "claim", dataset: { testid } }, item.text);
      for (const id of item.citations || []) {
        const cited = byId.get(id);
        if (!cited) {
          line.append(h("sup", { class: "cite missing" }, id));
          continue;
        }
        line.append(
          h(
            "button",
            {
              type: "button",
              class: "cite",
              title: `${cited.citation.citationId} · ${cited.citation.source}`,
              "aria-expanded": "false",
              dataset: { testid: "agent-cite", citationId: id },
              onclick: (event) => {
                const open = holder.querySelector(`[data-citation-id="${CSS.escape(id)}"]`);
                event.currentTarget.setAttribute("aria-expanded", String(!open));
                if (open) open.remove();
                else holder.append(excerptCard(cited.citation, cited.number));
              },
            },
            String(cited.number),
          ),
        );
      }
      line.append(holder);
      return line;
    }

    function listBox(title, items, testid, ordered) {
      if (!items || !items.length) return null;
      return h("div", { class: "gaps", dataset: { testid } }, h("strong", {}, title), h(ordered ? "ol" : "ul", {}, items.map((item) => h("li", {}, item))));
    }

    function sourcesBox(citations) {
      if (!citations.length) return null;
      return h(
        "details",
        { class: "sources", open: true, dataset: { testid: "agent-sources" } },
        h("summary", {}, `${t("sources")} (${citations.length})`),
        h(
          "ol",
          {},
          citations.map((c) =>
            h("li", { dataset: { testid: "agent-source", citationId: c.citationId } }, h("code", {}, c.citationId), " · ", c.source),
          ),
        ),
      );
    }

    function renderResult(turn, result) {
      const citations = result.citations || [];
      const byId = new Map(citations.map((c, i) => [c.citationId, { citation: c, number: i + 1 }]));
      const statements = result.statements || [];
      const steps = result.steps || [];
      const body = [
        h(
          "div",
          { class: "result-head" },
          decisionBadge(result.decision),
          h("code", { class: "muted small", dataset: { testid: "agent-reason" } }, result.reason),
          h("span", { class: "muted small" }, `${result.rounds} ${t("agent.rounds")}`),
        ),
        result.fallback ? h("p", { class: "muted", dataset: { testid: "agent-fallback" } }, t("agent.fallback")) : null,
        result.summary ? h("p", { class: "subhead", dataset: { testid: "agent-summary" } }, result.summary) : null,
        // A fallback's answer is the chat pipeline's, which has no statements of its own.
        result.fallback ? h("pre", { class: "pre", dataset: { testid: "agent-answer" } }, result.answer) : null,
        statements.length
          ? h("ul", { class: "agent-statements", dataset: { testid: "agent-statements" } }, statements.map((s) => citedLine("li", s, byId, "agent-statement")))
          : null,
        steps.length
          ? h("ol", { class: "agent-steps", dataset: { testid: "agent-steps" } }, steps.map((s) => citedLine("li", s, byId, "agent-step")))
          : null,
        (result.conflicts || []).length
          ? listBox(t("agent.conflicts"), result.conflicts.map((pair) => pair.join(" ↔ ")), "agent-conflicts")
          : null,
        slotsBox(result),
        listBox(t("agent.missingInfo"), result.missingInformation, "agent-missing-info"),
        listBox(t("agent.clarify"), result.clarifyingQuestions, "agent-clarify"),
        sourcesBox(citations),
        h("a", { class: "trace-link", href: `#/trace/${encodeURIComponent(result.runId)}`, dataset: { testid: "agent-open-trace" } }, `${t("openTrace")} →`),
      ];
      turn.body.replaceChildren(...body.filter(Boolean));
      turn.root.dataset.runId = result.runId;
      turn.root.dataset.decision = result.decision;
    }

    async function ask(question) {
      if (view.busy) return;
      view.busy = true;
      view.els.button.disabled = true;
      const body = h("div", { class: "turn-body" }, h("div", { class: "spinner", "aria-label": t("asking") }));
      const turn = {
        body,
        root: h(
          "article",
          { class: "turn", dataset: { testid: "agent-turn" } },
          h("div", { class: "bubble user" }, question),
          h("div", { class: "bubble assistant" }, body),
        ),
      };
      view.els.intro.hidden = true;
      view.els.conversation.append(turn.root);
      try {
        renderResult(turn, await api("POST", "/api/agent/ask", { question, sessionId: view.sessionId }));
      } catch (err) {
        body.replaceChildren(h("div", { class: "error", dataset: { testid: "error" } }, err.message));
      } finally {
        view.busy = false;
        view.els.button.disabled = !canWrite();
        turn.root.scrollIntoView({ block: "end", behavior: "smooth" });
      }
    }

    function renderExamples(local) {
      const box = view.els.examples;
      box.replaceChildren();
      if (!local) return;
      box.append(h("p", { class: "muted", dataset: { i18n: "agent.examples" } }, t("agent.examples")));
      for (const question of EXAMPLES[document.documentElement.lang === "zh-CN" ? "zh-CN" : "en"]) {
        box.append(
          h("button", { type: "button", class: "chip", dataset: { testid: "agent-example" }, onclick: () => { view.els.question.value = question; view.els.question.focus(); } }, question),
        );
      }
    }

    function build(section) {
      const els = view.els;
      els.examples = h("div", { class: "examples" });
      els.intro = h("div", { class: "welcome" }, h("h1", { dataset: { i18n: "agent.title" } }, t("agent.title")), h("p", { dataset: { i18n: "agent.body" } }, t("agent.body")), els.examples);
      els.conversation = h("div", { class: "conversation", "aria-live": "polite", dataset: { testid: "agent-conversation" } }, els.intro);
      els.question = h("textarea", { rows: "2", maxlength: "2000", required: true, dataset: { testid: "agent-question" } });
      els.button = h("button", { type: "submit", class: "primary", dataset: { testid: "agent-ask", i18n: "ask" } }, t("ask"));
      els.session = h("code", { dataset: { testid: "agent-session-id" } }, view.sessionId.slice(0, 12));
      const form = h("form", { class: "composer", dataset: { testid: "agent-form" } }, els.question, els.button);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const question = els.question.value.trim();
        if (!question) return;
        els.question.value = "";
        ask(question);
      });
      els.question.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
          event.preventDefault();
          form.requestSubmit();
        }
      });
      const restart = () => {
        view.sessionId = newId();
        els.session.textContent = view.sessionId.slice(0, 12);
        els.conversation.replaceChildren(els.intro);
        els.intro.hidden = false;
      };
      section.replaceChildren(
        els.conversation,
        form,
        h("p", { class: "composer-hint muted" }, h("span", { dataset: { i18n: "session" } }, t("session")), " ", els.session, " ", h("button", { type: "button", class: "linkish", dataset: { i18n: "newSession" }, onclick: restart }, t("newSession"))),
      );
      view.built = true;
    }

    // Called by app.js's router each time #/agent is shown (and on a language or identity change).
    function show(section, me) {
      if (!view.built) build(section);
      renderExamples(Boolean(me) && me.mode === "local");
      view.els.question.placeholder = t("agent.placeholder");
      view.els.question.disabled = !canWrite();
      view.els.button.disabled = !canWrite() || view.busy;
    }

    return { show };
  }

  root.GroundgateAgent = { create, EXAMPLES };
})(window);
