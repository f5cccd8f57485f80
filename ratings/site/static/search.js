/* ratings publish: the search box on every page. It finds any player of the site by name,
   accents folded as the matcher folds them: the index (assets/players-index.js, written at
   publish time) holds every player's folded forms and the table that folds a typed
   character, both made by the matcher's own functions (ratings.site.search). The box is
   ARIA's combobox: the arrow keys move through the results while the box keeps the focus,
   Enter opens the one chosen (else the first), Escape closes the list. Without JavaScript
   the box opens the players page. window.ratingsSearch lends the folding to the tables'
   filter (assets/site.js). */
(function () {
  "use strict";
  var MAX = 20;
  var root = "";
  var loading = false;
  var waiting = [];
  var formsById = null;

  /* the index, loaded the first time it is wanted (by the box or a table's filter) */
  function load(then) {
    if (window.ratingsIndex) { then(); return; }
    waiting.push(then);
    if (loading) { return; }
    loading = true;
    var script = document.createElement("script");
    script.src = root + "assets/players-index.js";
    script.onload = function () {
      var calls = waiting;
      waiting = [];
      calls.forEach(function (call) { call(); });
    };
    document.head.appendChild(script);
  }

  /* ratings.site.search.query_words: each character through the table (ASCII as it is),
     lower case, apostrophes dropped, split at anything but a letter or digit */
  function words(text) {
    var table = window.ratingsIndex.fold;
    var out = "";
    for (var i = 0; i < text.length; i += 1) {
      var c = text.charAt(i);
      var code = text.charCodeAt(i);
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
        c = text.substr(i, 2);
        i += 1;
      }
      if (c.length === 1 && code < 128) { out += c; }
      else if (Object.prototype.hasOwnProperty.call(table, c)) { out += table[c]; }
    }
    out = out.toLowerCase().replace(/['`]/g, "");
    return out.split(/[^a-z0-9]+/).filter(function (w) { return w !== ""; });
  }

  /* every word wanted starts a word of one form of the name, or is one of the whole words
     of `exact` (a title, a federation: "im" is not "Wim") */
  function matches(forms, wanted, exact) {
    return forms.split("|").some(function (form) {
      var have = form.split(" ");
      return wanted.every(function (w) {
        return (exact && exact.indexOf(w) !== -1) ||
          have.some(function (h) { return h.lastIndexOf(w, 0) === 0; });
      });
    });
  }

  function find(query) {
    var wanted = words(query);
    if (wanted.length === 0) { return null; }
    return window.ratingsIndex.players.filter(function (p) { return matches(p[2], wanted); });
  }

  /* a player's folded forms by id (the index loaded) */
  function formsOf(id) {
    if (formsById === null) {
      formsById = {};
      window.ratingsIndex.players.forEach(function (p) { formsById[p[0]] = p[2]; });
    }
    return Object.prototype.hasOwnProperty.call(formsById, id) ? formsById[id] : null;
  }

  window.ratingsSearch = {
    words: function (text) { return words(text); },
    find: find,
    load: load,
    forms: formsOf,
    matches: matches
  };

  var form = document.querySelector("form.search");
  if (!form) { return; }
  var input = form.querySelector("input");
  root = form.getAttribute("data-root") || "";
  var box = document.createElement("div");
  box.className = "search-results";
  box.id = "search-results";
  box.hidden = true;
  /* the live region is made when the box is first used: until then the page's own
     status (the table filter's) is the only one */
  var status = document.createElement("p");
  status.className = "muted";
  var list = document.createElement("ul");
  list.id = "search-options";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Players found");
  box.appendChild(status);
  box.appendChild(list);
  form.appendChild(box);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", "search-options");
  input.setAttribute("aria-expanded", "false");
  var active = -1;

  function options() { return list.querySelectorAll("[role=option]"); }
  function choose(index) {
    var all = options();
    Array.prototype.forEach.call(all, function (o, i) {
      o.setAttribute("aria-selected", i === index ? "true" : "false");
    });
    active = index;
    if (index < 0 || index >= all.length) {
      active = -1;
      input.removeAttribute("aria-activedescendant");
      return;
    }
    input.setAttribute("aria-activedescendant", all[index].id);
    all[index].scrollIntoView({ block: "nearest" });
  }
  function open(shown) {
    box.hidden = !shown;
    input.setAttribute("aria-expanded", shown ? "true" : "false");
    if (!shown) { choose(-1); }
  }

  function show() {
    var found = find(input.value);
    while (list.firstChild) { list.removeChild(list.firstChild); }
    choose(-1);
    if (found === null) { open(false); status.textContent = ""; return; }
    found.slice(0, MAX).forEach(function (p, i) {
      var item = document.createElement("li");
      item.setAttribute("role", "none");
      var link = document.createElement("a");
      /* a player with no page on this site's list has one on another list's (p[3]) */
      link.href = root + (p[3] || "") + "players/" + p[0] + ".html";
      link.textContent = p[1];
      link.id = "search-option-" + i;
      link.setAttribute("role", "option");
      link.setAttribute("aria-selected", "false");
      link.tabIndex = -1;
      item.appendChild(link);
      list.appendChild(item);
    });
    status.textContent = found.length === 0 ? "No player found" :
      found.length > MAX ? found.length + " players found, the first " + MAX + " shown" :
      found.length + (found.length === 1 ? " player found" : " players found");
    open(true);
  }

  var timer = null;
  input.addEventListener("focus", function () {
    status.setAttribute("role", "status");
    load(function () {});
  });
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { load(show); }, 80);
  });
  input.addEventListener("keydown", function (event) {
    var count = options().length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (box.hidden) {
        load(function () { show(); if (options().length) { choose(0); } });
        return;
      }
      if (!count) { return; }
      var step = event.key === "ArrowDown" ? 1 : -1;
      choose(active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count);
    } else if (event.key === "Escape") {
      if (!box.hidden) { event.preventDefault(); open(false); }
    }
  });
  form.addEventListener("submit", function (event) {
    var all = options();
    var chosen = active >= 0 ? all[active] : all[0];
    if (chosen && !box.hidden) {
      event.preventDefault();
      window.location.href = chosen.href;
    }
  });
  var given = /[?&]q=([^&]*)/.exec(window.location.search);
  if (given) {
    status.setAttribute("role", "status");
    input.value = decodeURIComponent(given[1].replace(/\+/g, " "));
    load(show);
  }
})();
