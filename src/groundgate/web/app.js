// groundgate's web page: plain JavaScript, no build step. Everything it shows comes from the API
// with the user's key; all text from the server is inserted as text (never as HTML). This file is the
// page itself: its state, the words (t), who the user is, the key bar, the language, and the router
// that shows one view at a time. The views and their building blocks are the files index.html loads
// before it: dom.js, api.js, answer.js, feedback.js, chat.js, trace.js, library.js, agent.js, alerts.js.
"use strict";

(() => {
  // The words (zh-CN, en) and example questions: i18n.js.
  const { STRINGS, EXAMPLES } = window.GroundgateStrings;

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

  // ------------------------------------------------------------------ the page's parts

  // Each part is its own file, loaded by index.html before this one; they build with these helpers.
  const lang = () => state.lang;
  const canWrite = () => !state.me || state.me.canWrite;
  const dom = window.GroundgateDom.create({ t, lang });
  const { h, $, showNotice } = dom;
  const client = window.GroundgateApi.create({ t, lang, sessionId: () => state.sessionId, onUnauthorized: openKeyBar });
  const { api } = client;
  const helpers = { ...dom, ...client, t, state, newId, canWrite };
  const answer = window.GroundgateAnswer.create(helpers);
  const feedback = window.GroundgateFeedback.create(helpers);
  const chat = window.GroundgateChat.create({ ...helpers, ...answer, ...feedback });
  const traceView = window.GroundgateTrace.create(helpers);
  const library = window.GroundgateLibrary.create(helpers);

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
    const writable = canWrite();
    $("question").disabled = !writable;
    $("ask-button").disabled = !writable || state.busy;
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

  // ------------------------------------------------------------------ routing

  // The business agent's view (#/agent) is agent.js, loaded before this file; it builds with these helpers.
  const agentView = window.GroundgateAgent && window.GroundgateAgent.create({ h, t, api, newId, canWrite });
  // The Alerts view (#/alerts) is alerts.js, built the same way.
  const alertsView = window.GroundgateAlerts && window.GroundgateAlerts.create(helpers);

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
    if (view === "trace") traceView.show($("view-trace"), decodeURIComponent(hash.slice("#/trace/".length)));
    else if (view === "runs") library.showRunList($("view-runs"), { title: t("runs.title"), empty: t("runs.empty"), testid: "run" });
    else if (view === "bad-cases") {
      library.showRunList($("view-bad-cases"), { feedback: "not_useful", title: t("bad.title"), empty: t("bad.empty"), testid: "bad-case" });
    }
    else if (view === "cases") library.showCases($("view-cases"));
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
      chat.ask(question);
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
