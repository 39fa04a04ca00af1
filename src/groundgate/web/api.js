// groundgate's web page: its API client. Every request carries the user's key (sessionStorage) and
// the page's language; a refused one becomes an ApiError whose message is for people. `streamChat`
// reads POST /api/chat as Server-Sent Events (the stages, then the result). Loaded by index.html
// before app.js, which calls window.GroundgateApi.create({ t, lang, sessionId, onUnauthorized }).
"use strict";

(function (root) {
  function create({ t, lang, sessionId, onUnauthorized }) {
    class ApiError extends Error {
      constructor(status, message, body) {
        super(message);
        this.status = status;
        this.body = body;
      }
    }

    function headers(extra) {
      // Accept-Language: replies meant for people (the feedback message) come in the page's language.
      const result = { Accept: "application/json", "Accept-Language": lang(), ...(extra || {}) };
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
      if (response.status === 401) onUnauthorized();
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
          body: JSON.stringify({ question, sessionId: sessionId() }),
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

    return { ApiError, headers, failure, api, streamChat };
  }

  root.GroundgateApi = { create };
})(window);
