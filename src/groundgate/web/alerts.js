// groundgate's web page: the Alerts view (#/alerts). It lists the alert episodes Alertmanager sent
// (GET /api/aiops/alerts, the caller's tenant only): each alert once per firing (fingerprint and
// startsAt), where its diagnosis stands, how many notifications repeated it, when it resolved, and a
// link to the diagnosis run's trace. Loaded by index.html before app.js, which calls
// window.GroundgateAlerts.create(helpers) with its own h/t/api/fmtTime/statusPill, so the page is
// built one way only: DOM from text nodes (the Content-Security-Policy forbids inline script and style).
"use strict";

(function (root) {
  function create({ h, t, api, fmtTime, statusPill }) {
    function row(episode) {
      const name = episode.runId
        ? h("a", { href: `#/trace/${encodeURIComponent(episode.runId)}`, dataset: { testid: "alert-run" } }, episode.alertname)
        : h("span", {}, episode.alertname);
      return h(
        "li",
        { dataset: { testid: "alert", fingerprint: episode.fingerprint, status: episode.status } },
        h("span", { class: "run-query" }, name),
        h(
          "span",
          { class: "run-meta" },
          statusPill(episode.status),
          h("span", { class: "muted small", title: t("alerts.startsAt") }, fmtTime(episode.startsAt)),
          episode.notifications > 1
            ? h("span", { class: "muted small", dataset: { testid: "alert-repeats" } }, t("alerts.repeats", { n: episode.notifications }))
            : null,
          episode.resolvedAt ? h("span", { class: "pill ok", dataset: { testid: "alert-resolved" } }, t("alerts.resolved", { at: fmtTime(episode.resolvedAt) })) : null,
          episode.error ? h("span", { class: "pill bad", title: episode.error }, t("alerts.failed")) : null,
        ),
      );
    }

    async function show(view) {
      view.replaceChildren(h("p", { class: "muted" }, t("loading")));
      let episodes;
      try {
        episodes = await api("GET", "/api/aiops/alerts?limit=200");
      } catch (err) {
        view.replaceChildren(h("div", { class: "error", dataset: { testid: "error" } }, err.message));
        return;
      }
      view.replaceChildren(
        h(
          "div",
          { class: "page-head" },
          h("h2", {}, t("alerts.title")),
          h("button", { type: "button", class: "linkish", onclick: () => show(view) }, t("refresh")),
        ),
        h("p", { class: "muted small" }, t("alerts.body")),
        episodes.length
          ? h("ul", { class: "run-list", dataset: { testid: "alert-list" } }, episodes.map(row))
          : h("p", { class: "muted", dataset: { testid: "alert-empty" } }, t("alerts.empty")),
      );
    }

    return { show };
  }

  root.GroundgateAlerts = { create };
})(window);
