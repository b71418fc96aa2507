// Live counts for the composer: characters of the title and message, and the payload's
// size in bytes as a provider would count it (UTF-8 JSON of the alert and our data keys).
// The server checks the same limits, with every placeholder at its longest, when saving.
(function () {
  "use strict";
  var form = document.getElementById("composer");
  if (!form) return;
  var title = document.getElementById("title");
  var body = document.getElementById("body");
  var template = document.getElementById("template");
  var titleCount = document.getElementById("title-count");
  var bodyCount = document.getElementById("body-count");
  var payload = document.getElementById("payload-count");
  var limit = parseInt(payload.getAttribute("data-limit"), 10);
  var deepLink = form.querySelector("select[name=deep_link]");

  function bytes(text) {
    return new TextEncoder().encode(text).length;
  }

  function update() {
    titleCount.textContent = title.value.length + " of " + title.maxLength + " characters";
    bodyCount.textContent = body.value.length + " of " + body.maxLength + " characters";
    var data = { aps: { alert: { title: title.value, body: body.value } }, delivery_id: "c0000000-0000000000" };
    if (deepLink && deepLink.value) data.deep_link = deepLink.value;
    var size = bytes(JSON.stringify(data));
    payload.textContent = size + " of " + limit + " payload bytes (before placeholders are filled)";
    payload.className = size > limit ? "over" : "";
  }

  function useTemplate() {
    var chosen = template.options[template.selectedIndex];
    var fromTemplate = chosen && chosen.value !== "";
    if (fromTemplate) {
      title.value = chosen.getAttribute("data-title");
      body.value = chosen.getAttribute("data-body");
    }
    title.readOnly = fromTemplate;
    body.readOnly = fromTemplate;
    update();
  }

  title.addEventListener("input", update);
  body.addEventListener("input", update);
  if (deepLink) deepLink.addEventListener("change", update);
  template.addEventListener("change", useTemplate);
  if (template.value !== "") useTemplate(); else update();
})();
