// groundgate's web page: the tenant's runs (#/runs), the bad cases (#/bad-cases: runs rated 👎, each
// downloadable as an eval fixture) and the case library (#/cases). Loaded by index.html before
// app.js, which calls window.GroundgateLibrary.create(helpers).
"use strict";

(function (root) {
  function create({ h, t, api, headers, failure, kv, statusPill, kindBadge, verdictBadge, fmtTime }) {
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

    return { showRunList, showCases };
  }

  root.GroundgateLibrary = { create };
})(window);
