/* ratings publish: the search box on every page. It finds any player of the site by name,
   accents folded as the matcher folds them: the index (assets/players-index.js, written at
   publish time) holds every player's folded forms and the table that folds a typed
   character, both made by the matcher's own functions (ratings.site.search). Without
   JavaScript the box opens the players page. */
(function () {
  "use strict";
  var MAX = 20;
  var form = document.querySelector("form.search");
  if (!form) { return; }
  var input = form.querySelector("input");
  var root = form.getAttribute("data-root") || "";
  var box = document.createElement("div");
  box.className = "search-results";
  box.id = "search-results";
  box.hidden = true;
  /* the live region is made when the box is first used: until then the page's own
     status (the table filter's) is the only one */
  var status = document.createElement("p");
  status.className = "muted";
  var list = document.createElement("ul");
  box.appendChild(status);
  box.appendChild(list);
  form.appendChild(box);
  input.setAttribute("aria-controls", "search-results");
  var loading = false;
  var pending = null;

  function load(then) {
    if (window.ratingsIndex) { then(); return; }
    pending = then;
    if (loading) { return; }
    loading = true;
    var script = document.createElement("script");
    script.src = root + "assets/players-index.js";
    script.onload = function () { if (pending) { pending(); } };
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

  function matches(forms, wanted) {
    return forms.split("|").some(function (form) {
      var have = form.split(" ");
      return wanted.every(function (w) {
        return have.some(function (h) { return h.lastIndexOf(w, 0) === 0; });
      });
    });
  }

  function find(query) {
    var wanted = words(query);
    if (wanted.length === 0) { return null; }
    return window.ratingsIndex.players.filter(function (p) { return matches(p[2], wanted); });
  }

  function show() {
    var query = input.value;
    var found = find(query);
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (found === null) { box.hidden = true; status.textContent = ""; return; }
    found.slice(0, MAX).forEach(function (p) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + "players/" + p[0] + ".html";
      link.textContent = p[1];
      item.appendChild(link);
      list.appendChild(item);
    });
    status.textContent = found.length === 0 ? "No player found" :
      found.length > MAX ? found.length + " players found, the first " + MAX + " shown" :
      found.length + (found.length === 1 ? " player found" : " players found");
    box.hidden = false;
  }

  window.ratingsSearch = { words: function (text) { return words(text); }, find: find };
  var timer = null;
  input.addEventListener("focus", function () {
    status.setAttribute("role", "status");
    load(function () {});
  });
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { load(show); }, 80);
  });
  form.addEventListener("submit", function (event) {
    var first = list.querySelector("a");
    if (first && !box.hidden) {
      event.preventDefault();
      window.location.href = first.href;
    }
  });
  var given = /[?&]q=([^&]*)/.exec(window.location.search);
  if (given) {
    status.setAttribute("role", "status");
    input.value = decodeURIComponent(given[1].replace(/\+/g, " "));
    load(show);
  }
})();
