/* ratings publish: the interactive rating chart, on demand. The page shows the chart drawn
   at publish time (no script needed); a button here loads Vega-Embed (assets/vega.js, about
   900 KB, only when asked) and draws the same data with tooltips. The specification and its
   data are in the page, in a JSON script element. */
(function () {
  "use strict";

  function draw(node, target, button) {
    var spec = JSON.parse(node.textContent);
    window.vegaEmbed(target, spec, { actions: false, renderer: "svg", mode: "vega-lite" })
      .then(function () {
        target.hidden = false;
        var still = target.parentNode.querySelector(".rchart");
        if (still) { still.hidden = true; }
        target.setAttribute("data-drawn", "true");
        button.remove();
      })
      .catch(function (error) {
        button.textContent = "The interactive chart could not be drawn";
        button.disabled = true;
        if (window.console) { window.console.warn(error); }
      });
  }

  Array.prototype.forEach.call(document.querySelectorAll("script.chart-spec"), function (node) {
    var target = document.getElementById(node.getAttribute("data-target"));
    if (!target) { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "chart-more";
    button.textContent = "Interactive chart (loads 900 KB)";
    button.addEventListener("click", function () {
      button.disabled = true;
      button.textContent = "Loading the interactive chart\u2026";
      if (typeof window.vegaEmbed === "function") { draw(node, target, button); return; }
      var script = document.createElement("script");
      script.src = node.getAttribute("data-vega");
      script.onload = function () { draw(node, target, button); };
      script.onerror = function () {
        button.textContent = "The interactive chart could not be loaded";
      };
      document.head.appendChild(script);
    });
    target.parentNode.insertBefore(button, target);
  });
})();
