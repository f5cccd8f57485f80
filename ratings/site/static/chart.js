/* ratings publish: the interactive rating chart, on demand. The page shows the chart drawn
   at publish time (no script needed); a button here loads Vega-Embed (assets/vega.js, about
   900 KB, only when asked) and draws the same data with tooltips. The specification and its
   data are in the page, in a JSON script element (ratings/site/chart.py: history_chart).

   A page is not written again every month, so the line is carried on here to the newest list
   that assets/newest.css names (--newest: its place among the periods, --newest-label), as
   the chart without JavaScript is: the params newest, labels and ticks of the specification. */
(function () {
  "use strict";

  var STEPS = [1, 2, 3, 4, 6, 12, 24, 36, 60, 120, 240];

  function param(spec, name) {
    var found = (spec.params || []).filter(function (p) { return p.name === name; });
    return found.length ? found[0] : null;
  }

  function newestList() {
    var style = window.getComputedStyle(document.documentElement);
    var index = parseInt(style.getPropertyValue("--newest"), 10);
    var label = style.getPropertyValue("--newest-label").trim();
    try { label = JSON.parse(label); } catch (e) { label = label.replace(/^"|"$/g, ""); }
    return isNaN(index) ? null : { index: index, label: String(label) };
  }

  // the same rule as chart.py's _ticks: every n-th list from the first, and the newest
  function ticks(first, newest, labels) {  // labels: from the first list on
    var span = newest - first + 1;
    var every = STEPS.filter(function (s) { return span / s <= 4; })[0] || STEPS[STEPS.length - 1];
    var out = [];
    for (var i = first; i <= newest; i += every) {
      if (newest - i >= Math.max(every, span / 5) && labels[i - first] !== undefined) {
        out.push(i);
      }
    }
    out.push(newest);
    return out;
  }

  function carryOn(spec) {
    var newest = param(spec, "newest");
    var first = param(spec, "first");
    var labels = param(spec, "labels");
    var tickList = param(spec, "ticks");
    var list = newestList();
    if (!newest || !first || !labels || !tickList || !list || list.index <= newest.value) {
      return spec;
    }
    newest.value = list.index;
    labels.value[list.index - first.value] = list.label;
    tickList.value = ticks(first.value, list.index, labels.value);
    return spec;
  }

  /* a screen reader hears the x axis in periods, not in the lists' places it is drawn on */
  function periodsAxis(target, spec) {
    var first = param(spec, "first"), newest = param(spec, "newest"), labels = param(spec, "labels");
    if (!first || !newest || !labels) { return; }
    Array.prototype.forEach.call(target.querySelectorAll("g[aria-roledescription=axis]"), function (g) {
      if (/^X-axis/.test(g.getAttribute("aria-label") || "")) {
        g.setAttribute("aria-label", "X-axis titled 'Period': the periods from " + labels.value[0] +
          " to the newest list, " + labels.value[newest.value - first.value]);
      }
    });
  }

  function draw(node, target, button) {
    var spec = carryOn(JSON.parse(node.textContent));
    window.vegaEmbed(target, spec, { actions: false, renderer: "svg", mode: "vega-lite" })
      .then(function () {
        periodsAxis(target, spec);
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
