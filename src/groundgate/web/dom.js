// groundgate's web page: its building blocks. `h` makes elements from text nodes only (the
// Content-Security-Policy forbids inline script and style, and nothing from the server is ever HTML);
// the formatters, tones and badges every view shows a run with; key-value lists and tables.
// Loaded by index.html before app.js, which calls window.GroundgateDom.create({ t, lang }) and hands
// what it returns to the other views.
"use strict";

(function (root) {
  function create({ t, lang }) {
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
      return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(lang());
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

    function statusPill(status) {
      return h("span", { class: `pill ${statusClass(status)}` }, status || "–");
    }

    return { h, $, fmtScore, fmtMs, fmtTime, kindClass, verdictClass, statusClass, kindBadge, verdictBadge, scoreMeter, showNotice, kv, table, statusPill };
  }

  root.GroundgateDom = { create };
})(window);
