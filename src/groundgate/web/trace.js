// groundgate's web page: a run's trace (#/trace/{runId}, GET /api/trace/{runId}). Its summary, the
// model steps, the tool invocations, the rule evaluation and the verifier's claim checks. Loaded by
// index.html before app.js, which calls window.GroundgateTrace.create(helpers).
"use strict";

(function (root) {
  function create({ h, t, api, kv, table, statusPill, kindBadge, verdictBadge, scoreMeter, fmtScore, fmtMs, fmtTime }) {
    function jsonBlock(value) {
      if (value === null || value === undefined) return "–";
      return h("code", { class: "json" }, typeof value === "string" ? value : JSON.stringify(value));
    }

    async function show(view, runId) {
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

    return { show };
  }

  root.GroundgateTrace = { create };
})(window);
