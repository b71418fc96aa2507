// Live counts on a campaign's page, from server-sent events. Without this script the
// page reloads itself every few seconds (a <noscript> refresh) and has a Refresh link.
(function () {
  "use strict";
  var panel = document.querySelector("[data-events]");
  if (!panel || !window.EventSource) return;
  var url = panel.getAttribute("data-events");
  if (!url) return;
  var note = document.getElementById("live-note");
  var badge = document.getElementById("status-badge");
  var detail = document.getElementById("status-detail");
  var words = {};
  var tones = {};
  if (badge) {
    badge.getAttribute("data-words").split(";").forEach(function (pair) {
      var parts = pair.split("=");
      words[parts[0]] = parts[1];
    });
    (badge.getAttribute("data-tones") || "").split(";").forEach(function (pair) {
      var parts = pair.split("=");
      tones[parts[0]] = parts[1];
    });
  }

  // The status as it is now: its word (scheduled, for a sending campaign not yet due), its
  // reason if it stopped, the actions it allows (by the stored status).
  function showStatus(status, shown, reason) {
    if (badge && words[shown || status]) {
      badge.textContent = words[shown || status];
      badge.className = "badge tone-" + (tones[shown || status] || "neutral");
    }
    if (detail) {
      detail.textContent = reason || "";
      detail.hidden = !reason;
    }
    document.querySelectorAll("[data-allowed]").forEach(function (form) {
      form.hidden = form.getAttribute("data-allowed").split(" ").indexOf(status) < 0;
    });
  }
  var bar = document.getElementById("progress-bar");
  var grouped = new Intl.NumberFormat("en-US");

  function rate(part, whole) {
    return whole === 0 ? "n/a" : (100 * part / whole).toFixed(1) + "%";
  }

  var source = new EventSource(url);
  source.onmessage = function (event) {
    var p = JSON.parse(event.data);
    p.done = p.accepted + p.failed + p.dead + p.unknown + p.cancelled + p.capped + p.excluded;
    p.sent = p.accepted + p.unknown + p.sending;
    p.pending = p.queued + p.waiting;
    p.unsent = p.capped + p.excluded + p.failed + p.dead;
    document.querySelectorAll("[data-count]").forEach(function (cell) {
      var key = cell.getAttribute("data-count");
      if (typeof p[key] === "number") cell.textContent = grouped.format(p[key]);
    });
    var received = document.querySelector("[data-rate=received]");
    var opened = document.querySelector("[data-rate=opened]");
    if (received) received.textContent = rate(p.received, p.accepted);
    if (opened) opened.textContent = rate(p.opened, p.received);
    if (bar) {
      bar.max = Math.max(1, p.total);
      bar.value = p.done;
    }
    showStatus(p.status, p.shownStatus, p.detail);
    // UTC, as every time the panel shows.
    if (note) note.textContent = "Live: updated " + new Date().toISOString().slice(11, 19) + " UTC.";
  };
  source.onerror = function () {
    if (note) note.textContent = "Live updates paused; the browser reconnects by itself.";
  };
  // A reconnect that finds nothing new sends no event: say the page is live again anyway.
  source.onopen = function () {
    if (note) note.textContent = "Live: connected " + new Date().toISOString().slice(11, 19) + " UTC.";
  };

  // The impact report is recomputed in the background every few seconds: its section is
  // fetched again and replaced, unless someone is choosing a winner in it.
  var impact = document.getElementById("impact");
  function figures(root) {
    return Array.prototype.map.call(root.querySelectorAll("table, p"), function (e) {
      return e.querySelector("time") ? "" : e.textContent;
    }).join("|");
  }
  if (impact && window.fetch && window.DOMParser) {
    setInterval(function () {
      // Someone reading the numbers (an open table) or in the section keeps it as it is.
      if (impact.contains(document.activeElement) || impact.querySelector("details[open]")) return;
      fetch(window.location.pathname, { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("impact");
          if (!fresh || impact.contains(document.activeElement)) return;
          // Replaced only when a figure changed: a screen reader keeps its place while only
          // the "as of" moves, which is then updated alone.
          if (figures(fresh) !== figures(impact)) {
            impact.innerHTML = fresh.innerHTML;
          } else {
            var time = impact.querySelector("time"), freshTime = fresh.querySelector("time");
            if (time && freshTime) time.replaceWith(freshTime);
          }
        })
        .catch(function () {});
    }, 5000);
  }
})();
