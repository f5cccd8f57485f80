/* ratings publish: draws each page's rating chart with Vega-Embed (assets/vega.js).
   The specification and its data are in the page, in a JSON script element. */
(function () {
  "use strict";
  if (typeof window.vegaEmbed !== "function") { return; }
  Array.prototype.forEach.call(document.querySelectorAll("script.chart-spec"), function (node) {
    var target = document.getElementById(node.getAttribute("data-target"));
    if (!target) { return; }
    var spec = JSON.parse(node.textContent);
    window.vegaEmbed(target, spec, { actions: false, renderer: "svg", mode: "vega-lite" })
      .then(function () { target.setAttribute("data-drawn", "true"); })
      .catch(function (error) {
        target.textContent = "The chart could not be drawn; the table below has every value.";
        if (window.console) { window.console.warn(error); }
      });
  });
})();
