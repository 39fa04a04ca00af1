// groundgate's web page: the chat pane (#/). A question becomes a turn: the stages as they stream in
// (planning, tool calls, the gatekeeper, the verifier), then the result: its output kind, verdict and
// score, the answer (answer.js), the raw answer and the feedback bar (feedback.js). Loaded by
// index.html before app.js, which calls window.GroundgateChat.create(helpers) and wires `ask` to the
// composer.
"use strict";

(function (root) {
  function create({ h, $, t, state, streamChat, fmtScore, fmtMs, kindClass, verdictClass, statusClass, kindBadge, verdictBadge, scoreMeter, renderAnswer, renderGaps, renderSources, feedbackBar }) {
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

    return { ask };
  }

  root.GroundgateChat = { create };
})(window);
