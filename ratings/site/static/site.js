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

  /* the columns whose cells a filter takes as whole words (a title, a federation) */
  function wholeWordColumns(table) {
    var found = [];
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      var heading = th.textContent.trim();
      if (heading === "Title" || heading === "Fed") { found.push(index); }
    });
    return found;
  }

  /* a row's name as the search box folds it: the index's forms of the player the row
     links (assets/players-index.js), else the words of the name as shown */
  function nameForms(row) {
    var link = row.querySelector("th a");
    var id = link ? /players\/([0-9]+)\.html$/.exec(link.getAttribute("href")) : null;
    var forms = id ? window.ratingsSearch.forms(Number(id[1])) : null;
    if (forms !== null) { return forms; }
    var th = row.querySelector("th");
    return window.ratingsSearch.words(th ? th.textContent : "").join(" ");
  }

  /* the filter of the players and the lists: the search box's folding and matching (every
     word typed starts a word of the name, accents and case folded), or a whole title or
     federation ("im" is IM, not Wim) */
  function addFilter(table) {
    var body = table.tBodies[0];
    if (!body || !window.ratingsSearch) { return; }
    var search = window.ratingsSearch;
    var wrap = document.createElement("p");
    wrap.className = "filter";
    var label = document.createElement("label");
    label.textContent = "Filter by name, title or federation: ";
    var input = document.createElement("input");
    input.type = "search";
    input.autocomplete = "off";
    input.spellcheck = false;
    label.appendChild(input);
    wrap.appendChild(label);
    var status = document.createElement("span");
    status.className = "muted";
    status.setAttribute("role", "status");
    wrap.appendChild(document.createTextNode(" "));
    wrap.appendChild(status);
    var holder = table.parentNode.classList.contains("table-wrap") ? table.parentNode : table;
    holder.parentNode.insertBefore(wrap, holder);
    var exactColumns = wholeWordColumns(table);
    var keyed = null;

    function apply() {
      var query = input.value;
      var wanted = search.words(query);
      if (keyed === null) {
        keyed = Array.prototype.map.call(body.rows, function (row) {
          var exact = [];
          exactColumns.forEach(function (i) {
            if (row.cells[i]) { exact = exact.concat(search.words(row.cells[i].textContent)); }
          });
          return { row: row, forms: nameForms(row), exact: exact };
        });
      }
      var shown = 0;
      keyed.forEach(function (k) {
        var match = wanted.length === 0 || search.matches(k.forms, wanted, k.exact);
        k.row.hidden = !match;
        if (match) { shown += 1; }
      });
      status.textContent = wanted.length === 0 ? "" : shown + " of " + keyed.length + " players";
      status.setAttribute("data-query", query);
    }
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { search.load(apply); }, 120);
    });
    /* players.html?q=...: where the search box sends a query it has no page for */
    var given = /[?&]q=([^&]*)/.exec(window.location.search);
    if (given && table.classList.contains("players")) {
      input.value = decodeURIComponent(given[1].replace(/\+/g, " "));
      search.load(apply);
    }
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    if (table.classList.contains("filterable")) { addFilter(table); }
    makeSortable(table);
  });
})();
