// groundgate's web page: the bar under an answer. 👍 / 👎 (POST /api/feedback; a writer's only), the
// server's word on where the run now stands in the case library, and the link to the run's trace.
// Loaded by index.html before app.js, which calls window.GroundgateFeedback.create({ h, t, api, canWrite }).
"use strict";

(function (root) {
  function create({ h, t, api, canWrite }) {
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
      return h(
        "div",
        { class: "feedback" },
        canWrite() ? buttons : null,
        status,
        h("a", { class: "trace-link", href: `#/trace/${encodeURIComponent(result.runId)}`, dataset: { testid: "open-trace" } }, `${t("openTrace")} →`),
      );
    }

    return { feedbackBar };
  }

  root.GroundgateFeedback = { create };
})(window);
