// Suggestions for the user search box: emails that start with what is typed, filled into
// the box's <datalist>. The page works without this file; it only saves typing.
(function () {
  "use strict";
  var input = document.getElementById("user-query");
  var list = document.getElementById("user-suggestions");
  var by = document.querySelector("select[name=by]");
  if (!input || !list || !window.fetch) return;
  var url = input.getAttribute("data-suggest");
  var timer = null;
  var last = "";

  function show(users) {
    while (list.firstChild) list.removeChild(list.firstChild);
    users.forEach(function (user) {
      var option = document.createElement("option");
      option.value = user.email;          // a property, never markup
      if (user.name) option.label = user.name;
      list.appendChild(option);
    });
  }

  function lookUp() {
    var typed = input.value.trim();
    // Recognised text ("any") may be an email too; ids and names get no suggestions.
    if ((by && by.value !== "email" && by.value !== "any") || typed.length < 3 || typed === last) return;
    last = typed;
    fetch(url + "?q=" + encodeURIComponent(typed), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : []; })
      .then(function (users) { if (input.value.trim() === typed) show(users); })
      .catch(function () { /* suggestions are optional */ });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(lookUp, 250);
  });
})();
