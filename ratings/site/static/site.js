/* ratings publish: progressive sorting and filtering of tables marked "sortable".
   The pages read the same without it. */
(function () {
  "use strict";

  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) { return ""; }
    var key = cell.getAttribute("data-sort");
    return key !== null ? key : cell.textContent.trim();
  }

  function isNumber(text) {
    return text !== "" && !isNaN(parseFloat(text)) && isFinite(text.replace(/^\+/, ""));
  }

  /* blanks (no change, no rating) sort last whichever the direction; numbers before text */
  function rank(text) {
    if (text === "") { return 2; }
    return isNumber(text) ? 0 : 1;
  }

  function compare(a, b) {
    if (isNumber(a) && isNumber(b)) { return parseFloat(a) - parseFloat(b); }
    return a.localeCompare(b);
  }

  function makeSortable(table) {
    var head = table.tHead;
    var body = table.tBodies[0];
    if (!head || !body) { return; }
    var headers = head.rows[0].cells;
    Array.prototype.forEach.call(headers, function (th, index) {
      var button = document.createElement("button");
      button.type = "button";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        /* a first click sorts in the column's first order (data-first: Rating and Change
           start with the largest), a second click the other way */
        var current = th.getAttribute("aria-sort");
        var descending = current === null
          ? th.getAttribute("data-first") === "descending"
          : current === "ascending";
        Array.prototype.forEach.call(headers, function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", descending ? "descending" : "ascending");
        var rows = Array.prototype.slice.call(body.rows);
        var keyed = rows.map(function (row, position) {
          return { row: row, key: cellValue(row, index), position: position };
        });
        keyed.sort(function (p, q) {
          var kinds = rank(p.key) - rank(q.key);
          if (kinds !== 0) { return kinds; }
          var order = compare(p.key, q.key);
          if (descending) { order = -order; }
          return order !== 0 ? order : p.position - q.position;
        });
        var fragment = document.createDocumentFragment();
        keyed.forEach(function (item) { fragment.appendChild(item.row); });
        body.appendChild(fragment);
      });
    });
  }

  function addFilter(table) {
    var body = table.tBodies[0];
    if (!body) { return; }
    var wrap = document.createElement("p");
    wrap.className = "filter";
    var label = document.createElement("label");
    label.textContent = "Filter by name, title or federation: ";
    var input = document.createElement("input");
    input.type = "search";
    input.autocomplete = "off";
    label.appendChild(input);
    wrap.appendChild(label);
    var status = document.createElement("span");
    status.className = "muted";
    status.setAttribute("role", "status");
    wrap.appendChild(document.createTextNode(" "));
    wrap.appendChild(status);
    var holder = table.parentNode.classList.contains("table-wrap") ? table.parentNode : table;
    holder.parentNode.insertBefore(wrap, holder);
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var needle = input.value.trim().toLowerCase();
        var shown = 0;
        Array.prototype.forEach.call(body.rows, function (row) {
          var text = row.getAttribute("data-filter");
          if (text === null) { text = row.textContent; }
          var match = needle === "" || text.toLowerCase().indexOf(needle) !== -1;
          row.hidden = !match;
          if (match) { shown += 1; }
        });
        status.textContent = needle === "" ? "" : shown + " of " + body.rows.length + " players";
      }, 120);
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    if (table.classList.contains("filterable")) { addFilter(table); }
    makeSortable(table);
  });
})();
