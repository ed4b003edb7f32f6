(function () {
  "use strict";
  var tasks = Array.prototype.slice.call(document.querySelectorAll("details.task"));
  var ids = ["f-run", "f-language", "f-technique", "f-verdict", "f-text"];
  function value(id) { var el = document.getElementById(id); return el ? el.value.trim() : ""; }
  function apply() {
    var run = value("f-run"), lang = value("f-language"), tech = value("f-technique"),
        verdict = value("f-verdict"), text = value("f-text").toLowerCase(), shown = 0;
    tasks.forEach(function (t) {
      var ok = (!run || t.dataset.run === run) && (!lang || t.dataset.language === lang) &&
        (!tech || t.dataset.technique === tech) && (!verdict || t.dataset.verdict === verdict) &&
        (!text || t.dataset.key.toLowerCase().indexOf(text) >= 0 || t.textContent.toLowerCase().indexOf(text) >= 0);
      t.style.display = ok ? "" : "none";
      if (ok) { shown++; }
    });
    document.getElementById("shown-count").textContent = shown + " of " + tasks.length + " tasks shown";
  }
  ids.forEach(function (id) {
    var el = document.getElementById(id);
    if (el) { el.addEventListener("input", apply); el.addEventListener("change", apply); }
  });
  apply();
  document.body.setAttribute("data-js-ready", "1");
})();
