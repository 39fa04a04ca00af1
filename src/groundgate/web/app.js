// groundgate's web page: plain JavaScript, no build step. Everything it shows comes from the API
// with the user's key; all text from the server is inserted as text (never as HTML).
"use strict";

(() => {
  // The words (zh-CN, en) and example questions: i18n.js.
  const { STRINGS, EXAMPLES } = window.GroundgateStrings;

  // Headings the composer's templates use (groundgate.compose.templates), to lay the answer out.
  const SOURCES_HEADINGS = ["引用：", "Sources:"];
  const GAP_HEADINGS = ["当前缺口：", "Current gaps:"];

  const state = {
    lang: pickLanguage(),
    me: null,
    sessionId: newId(),
    busy: false,
  };

  // ------------------------------------------------------------------ small helpers

  function pickLanguage() {
    const saved = localStorage.getItem("groundgate.lang");
    if (saved === "zh-CN" || saved === "en") return saved;
    return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh-CN" : "en";
  }

  function newId() {
    if (crypto.randomUUID) return crypto.randomUUID().replaceAll("-", "");
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function t(key, params) {
    const table = STRINGS[state.lang] || STRINGS.en;
    let text = key in table ? table[key] : key in STRINGS.en ? STRINGS.en[key] : key;
    for (const [name, value] of Object.entries(params || {})) {
      text = text.replaceAll(`{${name}}`, String(value));
    }
    return text;
  }

  // h("div", {class: "x", dataset: {testid: "y"}, onclick: fn}, child, "text", ...)
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") el.className = value;
      else if (name === "dataset") Object.assign(el.dataset, value);
      else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
      // Through the CSSOM: the Content-Security-Policy (style-src 'self') refuses style attributes.
      else if (name === "style") el.style.cssText = String(value);
      else if (value === true) el.setAttribute(name, "");
      else el.setAttribute(name, String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  function $(id) {
    return document.getElementById(id);
  }

  function fmtScore(value) {
    return typeof value === "number" ? value.toFixed(2) : "–";
  }

  function fmtMs(value) {
    if (typeof value !== "number") return "–";
    return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;
  }

  function fmtTime(value) {
    if (!value) return "–";
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(state.lang);
  }

  function kindClass(kind) {
    return { NORMAL: "ok", LOW_CONFID_WITH_DISCLAIMER: "warn", DEGRADED: "bad" }[kind] || "neutral";
  }

  function verdictClass(verdict) {
    return { PASS: "ok", LOW_CONFID: "warn", REJECT: "bad" }[verdict] || "neutral";
  }

  function statusClass(status) {
    // NOT_CALLED: a step that used no model (offline roles, the gatekeeper) — nothing went wrong.
    const tones = { OK: "ok", SUCCEEDED: "ok", RUNNING: "warn", NOT_CALLED: "neutral", SKIPPED: "neutral" };
    return tones[status] || (status ? "bad" : "neutral");
  }

  function kindBadge(kind) {
    if (!kind) return h("span", { class: "badge neutral" }, "–");
    return h(
      "span",
      { class: `badge ${kindClass(kind)}`, title: kind, dataset: { testid: "kind-badge", kind } },
      t(`kind.${kind}`),
      h("code", { class: "raw" }, kind),
    );
  }

  function verdictBadge(verdict) {
    const label = verdict ? t(`verdict.${verdict}`) : t("verdict.none");
    return h(
      "span",
      { class: `badge outline ${verdictClass(verdict)}`, dataset: { testid: "verdict-badge", verdict: verdict || "" } },
      label,
      verdict ? h("code", { class: "raw" }, verdict) : null,
    );
  }

  function scoreMeter(score) {
    const pct = Math.max(0, Math.min(1, Number(score) || 0)) * 100;
    return h(
      "span",
      { class: "score", title: t("score"), dataset: { testid: "score" } },
      h("span", { class: "score-label" }, t("score")),
      h("span", { class: "meter" }, h("span", { class: `meter-fill ${pct >= 75 ? "ok" : pct >= 50 ? "warn" : "bad"}`, style: `width:${pct}%` })),
      h("strong", { class: "score-value" }, fmtScore(score)),
    );
  }

  function showNotice(message) {
    const el = $("notice");
    el.textContent = message;
    el.hidden = !message;
  }

  // ------------------------------------------------------------------ the API

  class ApiError extends Error {
    constructor(status, message, body) {
      super(message);
      this.status = status;
      this.body = body;
    }
  }

  function headers(extra) {
    // Accept-Language: replies meant for people (the feedback message) come in the page's language.
    const result = { Accept: "application/json", "Accept-Language": state.lang, ...(extra || {}) };
    const key = sessionStorage.getItem("groundgate.key");
    if (key) result.Authorization = `Bearer ${key}`;
    return result;
  }

  async function failure(response) {
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    const message = (body && (body.message || body.detail)) || response.statusText || "error";
    if (response.status === 401) openKeyBar();
    return new ApiError(response.status, t("error.http", { status: response.status, message }), body);
  }

  async function api(method, path, body) {
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: headers(body === undefined ? {} : { "Content-Type": "application/json" }),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError(0, t("error.network", { message: err.message }), null);
    }
    if (!response.ok) throw await failure(response);
    return response.json();
  }

  // POST /api/chat with Accept: text/event-stream; calls onEvent(name, data) per event.
  async function streamChat(question, onEvent) {
    let response;
    try {
      response = await fetch("/api/chat", {
        method: "POST",
        headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
        body: JSON.stringify({ question, sessionId: state.sessionId }),
      });
    } catch (err) {
      throw new ApiError(0, t("error.network", { message: err.message }), null);
    }
    if (!response.ok) throw await failure(response);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let result = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
        }
        if (!data.length) continue;
        const payload = JSON.parse(data.join("\n"));
        if (name === "result") result = payload;
        else if (name === "error") throw new ApiError(503, t("error.http", { status: 503, message: payload.message }), payload);
        else onEvent(name, payload);
      }
      if (done) break;
    }
    if (!result) throw new ApiError(0, t("error.network", { message: "the stream ended without a result" }), null);
    return result;
  }

  // ------------------------------------------------------------------ identity, key, language

  function openKeyBar() {
    $("keybar").hidden = false;
    $("key-button").hidden = false;
    $("api-key").focus();
  }

  async function loadIdentity() {
    try {
      state.me = await api("GET", "/api/me");
      showNotice(state.me.canWrite ? "" : t("readOnly"));
    } catch (err) {
      state.me = null;
      const keyGiven = Boolean(sessionStorage.getItem("groundgate.key"));
      showNotice(err.status === 401 && !keyGiven ? t("key.needed") : err.message);
    }
    renderIdentity();
  }

  function renderIdentity() {
    const me = state.me;
    $("identity").textContent = me ? `${me.tenant} · ${me.user} · ${me.roles.join(", ")}` : "";
    // Local mode needs no key; a keyed service (or a refused key) shows the key button.
    $("key-button").hidden = Boolean(me) && me.mode === "local";
    const canWrite = !me || me.canWrite;
    $("question").disabled = !canWrite;
    $("ask-button").disabled = !canWrite || state.busy;
    renderExamples();
    if (agentView && location.hash === "#/agent") agentView.show($("view-agent"), me);
  }

  function renderExamples() {
    const box = $("examples");
    box.replaceChildren();
    if (!state.me || state.me.mode !== "local") return;
    box.append(h("p", { class: "muted" }, t("welcome.examples")));
    for (const question of EXAMPLES[state.lang]) {
      box.append(
        h(
          "button",
          {
            type: "button",
            class: "chip",
            dataset: { testid: "example" },
            onclick: () => {
              $("question").value = question;
              $("question").focus();
            },
          },
          question,
        ),
      );
    }
  }

  function applyLanguage() {
    document.documentElement.lang = state.lang;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    $("question").placeholder = state.lang === "zh-CN" ? "输入问题，例如错误码、订单号或时间段…" : "Ask about an error code, an order, an incident…";
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === state.lang));
    }
    $("session-id").textContent = state.sessionId.slice(0, 12);
    renderExamples();
    // Re-render the current non-chat view in the new language; chat turns keep what they showed.
    route();
  }

  // ------------------------------------------------------------------ the chat pane

  function stageText(name, payload) {
    const d = payload.detail || {};
    switch (name) {
      case "planning":
        return t("stage.planning", { round: payload.round });
      case "tool_call":
        return t("stage.tool_call", { tool: d.tool });
      case "tool_result":
        return t("stage.tool_result", { tool: d.tool, status: d.status });
      case "gatekeeper":
        return t("stage.gatekeeper", { passed: (d.passed || []).length, rejected: (d.rejected || []).length });
      case "verifier":
        return t("stage.verifier", { verdict: d.verdict, score: fmtScore(d.groundedness_score) });
      case "round_done":
        return t("stage.round_done", { round: payload.round, verdict: d.verdict });
      case "final":
        return t("stage.final", { kind: d.output_kind });
      default:
        return t(`stage.${name}`);
    }
  }

  function stageItem(name, payload) {
    const d = payload.detail || {};
    const tone =
      name === "tool_result" ? statusClass(d.status)
      : name === "verifier" || name === "round_done" ? verdictClass(d.verdict)
      : name === "final" ? kindClass(d.output_kind)
      : name === "gatekeeper" && (d.rejected || []).length ? "warn"
      : "neutral";
    const extra = [];
    if (name === "tool_call" && d.arguments) extra.push(h("code", { class: "args" }, JSON.stringify(d.arguments)));
    if (name === "tool_result" && d.observation) extra.push(h("span", { class: "observation" }, d.observation));
    return h(
      "li",
      { class: `stage ${tone}`, dataset: { testid: "stage", stage: name } },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("span", { class: "stage-text" }, stageText(name, payload)),
      extra,
    );
  }

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

  function feedbackBar(result) {
    const status = h("span", { class: "feedback-status muted", dataset: { testid: "feedback-status" }, role: "status" });
    const buttons = [];
    const send = async (value, button) => {
      for (const b of buttons) b.disabled = true;
      try {
        const response = await api("POST", "/api/feedback", {
          runId: result.runId,
          sessionId: result.sessionId,
          feedback: value,
        });
        for (const b of buttons) b.classList.toggle("chosen", b === button);
        // The server's message says where the run stands in the case library now (it follows the
        // latest rating), in the page's language (the Accept-Language every request sends).
        status.textContent =
          response.message +
          (response.caseId ? t("feedback.case", { id: response.caseId }) : "") +
          (value === "not_useful" ? t("feedback.bad") : "");
      } catch (err) {
        status.textContent = err.message;
      } finally {
        for (const b of buttons) b.disabled = false;
      }
    };
    for (const [value, emoji, label, testid] of [
      ["useful", "👍", t("useful"), "thumbs-up"],
      ["not_useful", "👎", t("notUseful"), "thumbs-down"],
    ]) {
      const button = h(
        "button",
        { type: "button", class: "thumb", title: label, "aria-label": label, dataset: { testid } },
        h("span", { class: "emoji", "aria-hidden": "true" }, emoji),
        h("span", {}, label),
      );
      button.addEventListener("click", () => send(value, button));
      buttons.push(button);
    }
    const canWrite = !state.me || state.me.canWrite;
    return h(
      "div",
      { class: "feedback" },
      canWrite ? buttons : null,
      status,
      h("a", { class: "trace-link", href: `#/trace/${encodeURIComponent(result.runId)}`, dataset: { testid: "open-trace" } }, `${t("openTrace")} →`),
    );
  }

  function renderResult(turn, result) {
    const parts = [
      h(
        "div",
        { class: "result-head" },
        kindBadge(result.outputKind),
        verdictBadge(result.verdict),
        scoreMeter(result.groundednessScore),
        h("span", { class: "muted small" }, `${fmtMs(result.elapsedMs)} · ${result.rounds} ${state.lang === "zh-CN" ? "轮" : result.rounds === 1 ? "round" : "rounds"}`),
      ),
      renderAnswer(result),
      renderGaps(result.gaps),
      renderSources(result.citations || []),
      h(
        "details",
        { class: "raw-answer" },
        h("summary", {}, t("rawAnswer")),
        h("pre", {}, result.answer || ""),
      ),
      feedbackBar(result),
    ];
    turn.body.replaceChildren(...parts.filter(Boolean));
    turn.root.dataset.runId = result.runId;
    turn.root.dataset.outputKind = result.outputKind;
  }

  function newTurn(question) {
    $("welcome").hidden = true;
    const stages = h("ol", { class: "stages", dataset: { testid: "stages" } });
    const body = h("div", { class: "turn-body" }, h("div", { class: "spinner", "aria-label": t("asking") }));
    const root = h(
      "article",
      { class: "turn", dataset: { testid: "turn" } },
      h("div", { class: "bubble user", dataset: { testid: "user-question" } }, question),
      h(
        "div",
        { class: "bubble assistant" },
        h("details", { class: "stage-box", open: true }, h("summary", {}, t("stages")), stages),
        body,
      ),
    );
    $("conversation").append(root);
    root.scrollIntoView({ block: "end", behavior: "smooth" });
    return { root, stages, body };
  }

  async function ask(question) {
    if (state.busy) return;
    state.busy = true;
    $("ask-button").disabled = true;
    $("ask-button").textContent = t("asking");
    const turn = newTurn(question);
    try {
      const result = await streamChat(question, (name, payload) => {
        turn.stages.append(stageItem(name, payload));
      });
      renderResult(turn, result);
    } catch (err) {
      turn.body.replaceChildren(h("div", { class: "error", dataset: { testid: "error" } }, err.message));
    } finally {
      state.busy = false;
      $("ask-button").disabled = false;
      $("ask-button").textContent = t("ask");
      turn.root.scrollIntoView({ block: "end", behavior: "smooth" });
    }
  }

  // ------------------------------------------------------------------ trace view

  function kv(pairs) {
    return h(
      "dl",
      { class: "kv" },
      pairs.filter(Boolean).map(([label, value]) => [h("dt", {}, label), h("dd", {}, value)]),
    );
  }

  function table(columns, rows, testid) {
    if (!rows.length) return h("p", { class: "muted" }, t("trace.none"));
    return h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { dataset: { testid } },
        h("thead", {}, h("tr", {}, columns.map((c) => h("th", {}, t(c))))),
        h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))),
      ),
    );
  }

  function jsonBlock(value) {
    if (value === null || value === undefined) return "–";
    return h("code", { class: "json" }, typeof value === "string" ? value : JSON.stringify(value));
  }

  function statusPill(status) {
    return h("span", { class: `pill ${statusClass(status)}` }, status || "–");
  }

  async function showTrace(view, runId) {
    view.replaceChildren(h("p", { class: "muted" }, t("loading")));
    let trace;
    try {
      trace = await api("GET", `/api/trace/${encodeURIComponent(runId)}`);
    } catch (err) {
      view.replaceChildren(h("div", { class: "error", dataset: { testid: "error" } }, err.message));
      return;
    }
    const rule = trace.ruleEvaluation;
    const verifier = trace.verifierEvaluation;
    view.replaceChildren(
      h(
        "div",
        { class: "page-head" },
        h("button", { type: "button", class: "linkish", onclick: () => history.back() }, `← ${t("trace.back")}`),
        h("h2", {}, t("trace.title"), " ", h("code", { dataset: { testid: "trace-run-id" } }, trace.runId)),
      ),
      h(
        "section",
        { class: "card" },
        h("h3", {}, t("trace.summary")),
        h("div", { class: "result-head" }, kindBadge(trace.outputKind), verdictBadge(trace.verdict), verifier ? scoreMeter(verifier.groundedness_score) : null),
        kv([
          [t("field.question"), h("span", { dataset: { testid: "trace-query" } }, trace.query)],
          [t("field.status"), statusPill(trace.status)],
          [t("field.decision"), trace.decisionStatus || "–"],
          [t("field.stop"), trace.stopReason || "–"],
          [t("field.rounds"), String(trace.rounds)],
          [t("field.elapsed"), fmtMs(trace.elapsedMs)],
          [t("field.tokens"), `${trace.inputTokens} / ${trace.outputTokens}`],
          [t("field.started"), fmtTime(trace.startedAt)],
          [t("field.feedback"), h("span", { dataset: { testid: "trace-feedback" } }, trace.feedback || "–")],
          [t("field.session"), h("code", {}, trace.sessionId)],
        ]),
        h("details", { class: "raw-answer" }, h("summary", {}, t("rawAnswer")), h("pre", {}, trace.answer || "")),
      ),
      h(
        "section",
        { class: "card" },
        h("h3", {}, t("trace.steps"), h("span", { class: "count" }, String(trace.steps.length))),
        table(
          ["col.seq", "col.role", "col.round", "col.parse", "col.model", "col.latency", "col.reason"],
          trace.steps.map((s) => [String(s.seq), s.role, String(s.round), statusPill(s.parseStatus), s.modelName, fmtMs(s.latencyMs), s.reasonCode || s.thought || "–"]),
          "trace-steps",
        ),
      ),
      h(
        "section",
        { class: "card" },
        h("h3", {}, t("trace.tools"), h("span", { class: "count" }, String(trace.toolInvocations.length))),
        table(
          ["col.tool", "col.round", "col.status", "col.arguments", "col.output", "col.latency"],
          trace.toolInvocations.map((i) => [
            h("strong", {}, i.tool),
            String(i.round),
            statusPill(i.status),
            jsonBlock(i.arguments),
            i.error ? h("span", { class: "bad-text" }, i.error) : i.outputSummary || "–",
            fmtMs(i.latencyMs),
          ]),
          "trace-tools",
        ),
      ),
      h(
        "section",
        { class: "card" },
        h("h3", {}, t("trace.rule")),
        rule
          ? [
              kv([[t("field.evidenceScore"), h("strong", { dataset: { testid: "evidence-score" } }, String(rule.evidence_score))]]),
              table(["col.rule", "col.delta", "col.detail"], (rule.factors || []).map((f) => [h("code", {}, f.rule), (f.delta > 0 ? "+" : "") + f.delta, f.detail || ""]), "trace-rules"),
            ]
          : h("p", { class: "muted" }, t("trace.none")),
      ),
      h(
        "section",
        { class: "card" },
        h("h3", {}, t("trace.verifier")),
        verifier
          ? [
              kv([
                [t("field.verdict"), verdictBadge(verifier.verdict)],
                [t("score"), fmtScore(verifier.groundedness_score)],
                [t("field.rationale"), h("code", {}, verifier.rationale || "–")],
              ]),
              h("h4", {}, t("trace.claims")),
              table(
                ["col.claim", "col.category", "col.codes"],
                (verifier.claim_checks || []).map((c) => [
                  c.claim_text,
                  h("span", { class: `pill ${c.category === "direct_evidence" ? "ok" : c.category === "indirect_evidence" ? "warn" : "bad"}` }, c.category),
                  h("code", { class: "codes" }, (c.reason_codes || []).join(" ")),
                ]),
                "trace-claims",
              ),
            ]
          : h("p", { class: "muted" }, t("trace.none")),
      ),
    );
  }

  // ------------------------------------------------------------------ bad cases and case library

  // A list of the tenant's runs, newest first; `feedback` narrows it (not_useful: the bad cases).
  async function showRunList(view, { feedback, title, empty, testid }) {
    view.replaceChildren(h("p", { class: "muted" }, t("loading")));
    let runs;
    try {
      runs = await api("GET", `/api/runs?limit=200${feedback ? `&feedback=${feedback}` : ""}`);
    } catch (err) {
      view.replaceChildren(h("div", { class: "error", dataset: { testid: "error" } }, err.message));
      return;
    }
    const feedbackMark = { useful: "👍", not_useful: "👎" };
    view.replaceChildren(
      h(
        "div",
        { class: "page-head" },
        h("h2", {}, title),
        h("button", { type: "button", class: "linkish", onclick: () => showRunList(view, { feedback, title, empty, testid }) }, t("refresh")),
      ),
      runs.length
        ? h(
            "ul",
            { class: "run-list", dataset: { testid: `${testid}-list` } },
            runs.map((run) =>
              h(
                "li",
                { dataset: { testid, runId: run.runId } },
                h(
                  "a",
                  { href: `#/trace/${encodeURIComponent(run.runId)}` },
                  h("span", { class: "run-query" }, run.query),
                  h(
                    "span",
                    { class: "run-meta" },
                    run.status !== "SUCCEEDED" ? statusPill(run.status) : null,
                    kindBadge(run.outputKind),
                    verdictBadge(run.verdict),
                    run.feedback ? h("span", { title: run.feedback, dataset: { testid: "run-feedback" } }, feedbackMark[run.feedback] || run.feedback) : null,
                    h("span", { class: "muted small" }, fmtTime(run.createdAt)),
                  ),
                ),
                feedback === "not_useful"
                  ? h("button", { type: "button", class: "linkish small", title: t("bad.captureTitle"), dataset: { testid: "capture-fixture" }, onclick: () => downloadFixture(run.runId) }, t("bad.capture"))
                  : null,
              ),
            ),
          )
        : h("p", { class: "muted", dataset: { testid: `${testid}-empty` } }, empty),
    );
  }

  // A bad case as an eval fixture (GET /api/runs/{id}/fixture): fetched with the key, saved as a file.
  async function downloadFixture(runId) {
    let response;
    try {
      response = await fetch(`/api/runs/${encodeURIComponent(runId)}/fixture`, { headers: headers({ Accept: "application/yaml" }) });
    } catch (err) {
      alert(t("error.network", { message: err.message }));
      return;
    }
    if (!response.ok) {
      alert((await failure(response)).message);
      return;
    }
    const url = URL.createObjectURL(new Blob([await response.text()], { type: "application/yaml" }));
    const link = h("a", { href: url, download: `${runId}.yaml` });
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  }

  // Long stored text: the first lines, the rest behind "more".
  function longText(text) {
    const value = text || "–";
    const cut = value.indexOf("\n\n");
    if (value.length <= 240 && cut < 0) return h("span", { class: "pre" }, value);
    const head = cut > 0 && cut <= 240 ? value.slice(0, cut) : `${value.slice(0, 240)}…`;
    return h("details", { class: "long" }, h("summary", {}, head), h("div", { class: "pre" }, value));
  }

  async function showCases(view) {
    view.replaceChildren(h("p", { class: "muted" }, t("loading")));
    let cases;
    try {
      cases = await api("GET", "/api/cases?limit=200");
    } catch (err) {
      view.replaceChildren(h("div", { class: "error", dataset: { testid: "error" } }, err.message));
      return;
    }
    view.replaceChildren(
      h("div", { class: "page-head" }, h("h2", {}, t("cases.title")), h("button", { type: "button", class: "linkish", onclick: () => showCases(view) }, t("refresh"))),
      cases.length
        ? h(
            "div",
            { class: "case-grid", dataset: { testid: "case-list" } },
            cases.map((c) =>
              h(
                "article",
                { class: "card case", dataset: { testid: "case", caseId: c.caseId } },
                h("h3", {}, c.title),
                kv([
                  [t("case.category"), h("span", { class: "pill neutral" }, c.faultCategory)],
                  [t("case.service"), c.service || "–"],
                  [t("case.codes"), (c.errorCodes || []).length ? c.errorCodes.map((code) => h("code", { class: "code-chip", dataset: { testid: "case-code" } }, code)) : "–"],
                  [t("case.rootCause"), longText(c.rootCause)],
                  // Seed 004 §8 fills both from the run's answer; show the solution only when it differs.
                  c.solution !== c.rootCause ? [t("case.solution"), longText(c.solution)] : null,
                ]),
                h("a", { href: `#/trace/${encodeURIComponent(c.diagnosisId)}` }, `${t("openTrace")} →`),
              ),
            ),
          )
        : h("p", { class: "muted", dataset: { testid: "case-empty" } }, t("cases.empty")),
    );
  }

  // ------------------------------------------------------------------ routing

  // The business agent's view (#/agent) is agent.js, loaded before this file; it builds with these helpers.
  const agentView = window.GroundgateAgent && window.GroundgateAgent.create({ h, t, api, newId, canWrite: () => !state.me || state.me.canWrite });
  // The Alerts view (#/alerts) is alerts.js, built the same way.
  const alertsView = window.GroundgateAlerts && window.GroundgateAlerts.create({ h, t, api, fmtTime, statusPill });

  function route() {
    const hash = location.hash || "#/";
    let view = "chat";
    if (hash.startsWith("#/trace/")) view = "trace";
    else if (hash === "#/runs") view = "runs";
    else if (hash === "#/bad-cases") view = "bad-cases";
    else if (hash === "#/cases") view = "cases";
    else if (hash === "#/agent") view = "agent";
    else if (hash === "#/alerts") view = "alerts";
    for (const section of document.querySelectorAll("main > .view")) {
      section.hidden = section.id !== `view-${view}`;
    }
    for (const link of document.querySelectorAll(".tabs a")) {
      link.classList.toggle("active", link.dataset.view === view);
    }
    if (view === "trace") showTrace($("view-trace"), decodeURIComponent(hash.slice("#/trace/".length)));
    else if (view === "runs") showRunList($("view-runs"), { title: t("runs.title"), empty: t("runs.empty"), testid: "run" });
    else if (view === "bad-cases") {
      showRunList($("view-bad-cases"), { feedback: "not_useful", title: t("bad.title"), empty: t("bad.empty"), testid: "bad-case" });
    }
    else if (view === "cases") showCases($("view-cases"));
    else if (view === "agent" && agentView) agentView.show($("view-agent"), state.me);
    else if (view === "alerts" && alertsView) alertsView.show($("view-alerts"));
  }

  // ------------------------------------------------------------------ start

  function start() {
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => {
        state.lang = button.dataset.lang;
        localStorage.setItem("groundgate.lang", state.lang);
        applyLanguage();
      });
    }
    $("key-button").addEventListener("click", () => {
      $("keybar").hidden = !$("keybar").hidden;
    });
    $("keybar").addEventListener("submit", async (event) => {
      event.preventDefault();
      const key = $("api-key").value.trim();
      if (key) sessionStorage.setItem("groundgate.key", key);
      else sessionStorage.removeItem("groundgate.key");
      $("api-key").value = "";
      await loadIdentity();
      if (state.me) $("keybar").hidden = true;
      route();
    });
    $("ask-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const question = $("question").value.trim();
      if (!question) return;
      $("question").value = "";
      ask(question);
    });
    $("question").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        $("ask-form").requestSubmit();
      }
    });
    $("new-session").addEventListener("click", () => {
      state.sessionId = newId();
      $("session-id").textContent = state.sessionId.slice(0, 12);
      $("conversation").replaceChildren($("welcome"));
      $("welcome").hidden = false;
    });
    window.addEventListener("hashchange", route);
    applyLanguage();
    loadIdentity();
  }

  start();
})();
