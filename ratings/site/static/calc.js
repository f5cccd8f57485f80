/* ratings publish: the calculators (calculators.html). window.ratingsCalc answers as
   `ratings calc expected|change|performance --format json` does: the same keys, the same
   numbers. The arithmetic is in integers of the rules' units (hundredths for table 8.1.2,
   10^-9 for the curve), rounded half away from zero, never with floating-point rounding;
   the tables and constants are window.RATINGS_RULES (assets/calc-rules.js, written from
   the package's rules at publish time). */
(function () {
  "use strict";
  var R = window.RATINGS_RULES;
  if (!R) { return; }
  var METHODS = ["table", "curve"];

  function fail(message) { throw new Error(message); }
  function repr(value) { return typeof value === "string" ? "'" + value + "'" : String(value); }
  function isInt(value) { return typeof value === "number" && Number.isSafeInteger(value); }
  /* a rating typed: a whole number within the register's bounds (0 to 3500), as the CLI */
  function checkRating(value, what) {
    if (!isInt(value) || value < R.min_rating || value > R.max_rating) {
      fail((what || "rating") + " must be a whole number from " + R.min_rating + " to " + R.max_rating + ": " + repr(value));
    }
    return value;
  }
  function checkDate(day) {
    if (typeof day !== "string" || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(day)) { fail("date must be YYYY-MM-DD: " + repr(day)); }
    return day;
  }
  function today() {
    var d = new Date();
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  /* floor(num / den) and num / den rounded half away from zero, exact for safe integers */
  function floorDiv(num, den) {
    var q = Math.floor(num / den);
    while (q * den > num) { q -= 1; }
    while ((q + 1) * den <= num) { q += 1; }
    return q;
  }
  function divideHalfAway(num, den) {
    var sign = (num < 0) !== (den < 0) ? -1 : 1;
    num = Math.abs(num); den = Math.abs(den);
    return sign * floorDiv(2 * num + den, 2 * den);
  }

  /* the edition in force on day: the last that starts on or before it, else the first */
  function edition(editions, day) {
    var found = editions[0];
    for (var i = 0; i < editions.length; i += 1) {
      if (editions[i].from <= day) { found = editions[i]; }
    }
    return found;
  }
  function kind(list) {
    if (list === undefined || list === null || list === "standard") { return "standard"; }
    if (list === "rapid" || list === "blitz") { return "rapid_blitz"; }
    return fail("unknown list (use standard, rapid or blitz): " + repr(list));
  }
  /* plain Elo (`ratings calc --plain`): the true difference, whatever the day or list */
  function ruleSet(day, list, plain) { return plain ? R.uncapped : edition(R.rule_sets[kind(list)], day); }

  /* art. 8.3.1: own - opp, capped at the edition's difference for a player it caps */
  function cappedDifference(own, opp, rs) {
    var diff = own - opp;
    var capped = rs.cap === "all" || (rs.cap === "below_2650" && own < rs.cap_exempt_from);
    if (capped) {
      if (diff > rs.cap_difference) { return rs.cap_difference; }
      if (diff < -rs.cap_difference) { return -rs.cap_difference; }
    }
    return diff;
  }
  /* R&B art. 7.3.1 (from 1 Dec 2024): players far apart, one above the mark, not rated */
  function rates(rs, a, b) {
    if (rs.not_rated_difference === null) { return true; }
    return !(Math.abs(a - b) >= rs.not_rated_difference && Math.max(a, b) > rs.not_rated_above);
  }
  function tablePd(diff) {
    var t = R.table_8_1_2, top = t.length - 1;
    if (diff >= 0) { return diff <= top ? t[diff] : R.table_units; }
    return R.table_units - (-diff <= top ? t[-diff] : R.table_units);
  }
  function curveHigher(absdiff) { return absdiff < R.curve.length ? R.curve[absdiff] : R.curve_units; }
  function curvePd(diff) { return diff >= 0 ? curveHigher(diff) : R.curve_units - curveHigher(-diff); }
  function unitsOf(method) { return method === "curve" ? R.curve_units : R.table_units; }
  function pdOf(method, diff) { return method === "curve" ? curvePd(diff) : tablePd(diff); }
  /* an exact decimal in units as a number: the nearest double, as float(Decimal) gives */
  function number(units, perPoint) { return units / perPoint; }

  function expected(own, opp, day, options) {
    checkRating(own); checkRating(opp, "opponent rating");
    var rs = ruleSet(checkDate(day || today()), "standard", Boolean((options || {}).plain));
    var diff = cappedDifference(own, opp, rs), out = {};
    METHODS.forEach(function (m) {
      out[m] = { difference: diff, expected: number(pdOf(m, diff), unitsOf(m)) };
    });
    return out;
  }

  /* art. 8.3.3, before the 700 rule, as ratings.rules.standing_k (the count may be unknown) */
  function baseK(rating, games, birthYear, k10, year) {
    var K = R.k;
    if (k10 || rating >= K.k10_mark) { return 10; }
    if (birthYear !== null && year - birthYear <= K.junior_max_age && rating < K.junior_mark) { return 40; }
    if (games === null) { return K.unknown_games_k; }
    return games < K.new_player_games ? 40 : 20;
  }
  /* a game's score: 1, 0.5 or 0, or a spelling RESULT takes (ratings.rules.parse_score) */
  var SPELLED = { "1": 2, "1.0": 2, "1-0": 2, "0.5": 1, ".5": 1, "1/2": 1, "=": 1, "\u00bd": 1,
                  "1/2-1/2": 1, "\u00bd-\u00bd": 1, "0": 0, "0.0": 0, "0-1": 0 };
  function halvesOf(score) {
    if (score === 1 || score === 0.5 || score === 0) { return score * 2; }
    var key = typeof score === "string" ? score.trim().replace(/ /g, "") : null;
    if (key !== null && Object.prototype.hasOwnProperty.call(SPELLED, key)) { return SPELLED[key]; }
    return fail("unknown result (use 1, 0.5, 1/2, = or 0, or 1-0, 1/2-1/2, 0-1): " + repr(score));
  }
  function optionalInt(value, what) {
    if (value === undefined || value === null || value === "") { return null; }
    if (!isInt(value) || value < 0) { fail(what + " must be a non-negative integer: " + repr(value)); }
    return value;
  }

  /* one method: every game's line (null when not rated), the K used, the change */
  function rateGames(own, games, o, method) {
    var day = o.day, rs = ruleSet(day, o.list, o.plain), perPoint = unitsOf(method);
    var lines = games.map(function (g) {
      if (!rates(rs, own, g[0])) { return null; }
      var diff = cappedDifference(own, g[0], rs), pd = pdOf(method, diff);
      return { difference: diff, pd: pd, dr: g[1] * (perPoint / 2) - pd };
    });
    var counted = lines.filter(function (l) { return l !== null; }).length;
    var k = null, sum = 0;
    if (counted) {
      var fixed = o.k !== null ? o.k : edition(R.list_rules[kind(o.list)], day.slice(0, 7) + "-01").fixed_k;
      k = fixed !== null ? fixed : baseK(own, o.games, o.birthYear, o.k10, Number(day.slice(0, 4)));
      if (k * counted > R.k.product_limit) { k = floorDiv(R.k.product_limit, counted); } /* the 700 rule */
      lines.forEach(function (l) { if (l) { sum += l.dr; } });
    }
    var change = counted ? divideHalfAway(k * sum, perPoint) : 0;
    /* a new rating below 0 is refused, as by the rules, in words about what was typed */
    if (own + change < 0) { fail("the rating " + own + " and its change give a new rating below 0"); }
    return { lines: lines, k: k, kdr: counted ? k * sum : 0, change: change, perPoint: perPoint, rs: rs };
  }

  function change(own, opp, score, options) {
    var o = options || {};
    checkRating(own);
    var several = Array.isArray(opp);
    var opps = several ? opp : [opp], scores = several ? score : [score];
    if (!Array.isArray(scores) || scores.length !== opps.length) {
      fail("--results has " + (Array.isArray(scores) ? scores.length : 1) + " results for " + opps.length + " opponents");
    }
    if (!opps.length) { fail("give at least one game: []"); }
    opps.forEach(function (r) { checkRating(r, "opponent rating"); });
    var k = optionalInt(o.k, "k");
    if (k !== null && (k < 1 || k > R.k.max)) { fail("k must be an integer from 1 to " + R.k.max + ": " + k); }
    var settings = {
      k: k, day: checkDate(o.date || today()), list: o.list,
      games: optionalInt(o.games, "games played"), birthYear: optionalInt(o.birth_year, "birth year"),
      k10: Boolean(o.k10), plain: Boolean(o.plain)
    };
    var games = opps.map(function (r, i) { return [checkRating(r, "opponent rating"), halvesOf(scores[i])]; });
    var out = {};
    METHODS.forEach(function (m) {
      var r = rateGames(own, games, settings, m), per = r.perPoint;
      if (!several) {
        var line = r.lines[0];
        if (line === null) {
          fail("game not rated: " + r.rs.not_rated_difference + " points or more apart with a player above " +
               r.rs.not_rated_above + " (R&B art. 7.3.1): " + own + " v " + games[0][0]);
        }
        out[m] = { difference: line.difference, expected: number(line.pd, per), k: r.k,
                   k_dr: number(r.k * line.dr, per), new_rating: own + r.change };
        return;
      }
      out[m] = {
        k: r.k,
        games: games.map(function (g, i) {
          var l = r.lines[i];
          return { opponent: g[0], score: g[1] / 2, rated: l !== null,
                   difference: l ? l.difference : null, expected: l ? number(l.pd, per) : null,
                   k_dr: l ? number(r.k * l.dr, per) : null };
        }),
        k_dr: number(r.kdr, per), change: r.change, new_rating: own + r.change
      };
    });
    return out;
  }

  /* performance: table 8.1.1 on the percentage rounded half up (fide, own), the 400 rule */
  function performance(opponents, score, options) {
    var o = options || {};
    if (!Array.isArray(opponents) || !opponents.length) { fail("a performance needs at least one opponent: []"); }
    opponents.forEach(function (r) { checkRating(r, "opponent rating"); });
    var n = opponents.length, halves = score * 2;
    if (typeof score !== "number" || !Number.isInteger(halves) || halves < 0 || halves > 2 * n) {
      fail("score must be a multiple of 0.5 from 0 to " + n + ": " + repr(score));
    }
    var total = opponents.reduce(function (a, b) { return a + b; }, 0);
    var p = divideHalfAway(100 * halves, 2 * n), dp = R.table_8_1_1[p], ra = divideHalfAway(total, n);
    var out = { fide: { performance: ra + dp, ra: ra, p: p, dp: dp } };
    var own = o.rating === undefined || o.rating === null || o.rating === "" ? null : checkRating(o.rating);
    if (own !== null) { out.own = { performance: own + dp, p: p, dp: dp }; }
    out.algorithm_400 = { performance: divideHalfAway(total + 400 * (halves - n), n) };
    return out;
  }

  window.ratingsCalc = { expected: expected, change: change, performance: performance };

  /* ---- the page's forms ---------------------------------------------------------------- */
  function byId(id) { return document.getElementById(id); }
  if (!byId("calc-expected")) { return; }

  /* the page's errors name the field and what the reader typed there */
  function labelOf(id) { return byId(id).labels[0].textContent.trim(); }
  function wrong(id, message) { byId(id).setAttribute("aria-invalid", "true"); fail(message); }
  function intValue(id, low, high) {
    var text = byId(id).value.trim();
    if (text === "") { return null; }
    if (!/^[0-9]{1,6}$/.test(text)) { wrong(id, labelOf(id) + ": " + text + " is not a whole number"); }
    var value = Number(text);
    if (low !== undefined && (value < low || value > high)) {
      wrong(id, labelOf(id) + ": " + text + " is not from " + low + " to " + high);
    }
    return value;
  }
  function ratingValue(id) {
    var v = intValue(id, R.min_rating, R.max_rating);
    if (v === null) { wrong(id, labelOf(id) + ": give a rating"); }
    return v;
  }
  function shown(value, perPoint) {
    /* a value of units/perPoint to 2 (table) or 4 (curve) places, half away from zero */
    var places = perPoint === R.table_units ? 2 : 4;
    var scaled = divideHalfAway(Math.round(value * perPoint) * Math.pow(10, places), perPoint);
    var sign = scaled < 0 ? "-" : "", a = Math.abs(scaled), p = Math.pow(10, places);
    return sign + Math.floor(a / p) + "." + String(a % p + p).slice(1);
  }
  function signed(text) { return /^[0.]+$/.test(text) ? text : (text.charAt(0) === "-" ? text : "+" + text); }
  function cell(row, text, header) {
    var c = document.createElement(header ? "th" : "td");
    c.textContent = text;
    row.appendChild(c);
  }
  function fill(tbody, rows) {
    tbody.textContent = "";
    rows.forEach(function (r) {
      var tr = document.createElement("tr");
      r.forEach(function (text, i) { cell(tr, text, i === 0); });
      tbody.appendChild(tr);
    });
  }
  /* a calculator's answer, or its error: the moment an input is invalid the results go,
     so that no number is left on the page for inputs that are no longer there */
  function report(id, run, results) {
    var status = byId(id + "-status");
    var form = status.previousElementSibling;
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid]"), function (input) {
      input.removeAttribute("aria-invalid");
    });
    try { status.textContent = run() || ""; status.classList.remove("calc-error"); }
    catch (e) {
      results.forEach(function (tbody) { byId(tbody).textContent = ""; });
      status.textContent = "No result: " + e.message;
      status.classList.add("calc-error");
    }
  }
  function dateValue(id) {
    var text = byId(id).value.trim();
    if (text === "") { return today(); }
    var m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
    var day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
    if (!day || day.getUTCMonth() !== Number(m[2]) - 1 || day.getUTCDate() !== Number(m[3])) {
      wrong(id, labelOf(id) + ": " + text + " is not a date written YYYY-MM-DD");
    }
    return text;
  }

  function plainChosen(id) { return byId(id).value === "plain"; }
  function changeText(n) { return n > 0 ? "+" + n : String(n); }
  /* the game for both players: each side is ratingsCalc.change of that player (the CLI's
     `calc change A B RESULT --k K`), shown side by side with the swing between them */
  function showPair(own, opp, day, plain) {
    var score = Number(byId("ex-score").value);
    var kOwn = intValue("ex-k-own", 1, R.k.max), kOpp = intValue("ex-k-opp", 1, R.k.max);
    if (kOwn === null) { wrong("ex-k-own", "Own K: give a K"); }
    if (kOpp === null) { wrong("ex-k-opp", "Opponent's K: give a K"); }
    var a = change(own, opp, score, { k: kOwn, date: day, plain: plain });
    var b = change(opp, own, 1 - score, { k: kOpp, date: day, plain: plain });
    function row(name, f) { return [name, f(a, own), f(b, opp)]; }
    fill(byId("ex-pair"), [
      row("Rating", function (x, r) { return String(r); }),
      row("Difference used", function (x) { return String(x.table.difference); }),
      row("E, table 8.1.2", function (x) { return shown(x.table.expected, R.table_units); }),
      row("E, curve", function (x) { return shown(x.curve.expected, R.curve_units); }),
      row("K", function (x) { return String(x.table.k); }),
      row("Change, table", function (x, r) { return changeText(x.table.new_rating - r); }),
      row("New rating, table", function (x) { return String(x.table.new_rating); }),
      row("Change, curve", function (x, r) { return changeText(x.curve.new_rating - r); }),
      row("New rating, curve", function (x) { return String(x.curve.new_rating); })
    ]);
    var swing = (a.table.new_rating - own) + (b.table.new_rating - opp);
    byId("ex-swing").textContent = "Swing (table 8.1.2): " + changeText(a.table.new_rating - own) +
      " and " + changeText(b.table.new_rating - opp) + (swing === 0 ? ", zero-sum: one gains what the other loses" :
      ", not zero-sum (" + changeText(swing) + " in all): different Ks, the rounding, or a player the 400-point rule leaves out");
  }
  function showExpected() {
    report("expected", function () {
      byId("ex-swing").textContent = "";
      var day = dateValue("ex-date"), plain = plainChosen("ex-rules");
      var own = ratingValue("ex-own"), opp = ratingValue("ex-opp");
      var e = expected(own, opp, day, { plain: plain });
      var curveUnits = Math.round(e.curve.expected * R.curve_units);
      var tableUnits = Math.round(e.table.expected * R.table_units);
      var gap = curveUnits - tableUnits * (R.curve_units / R.table_units);
      fill(byId("ex-result"), [
        ["table 8.1.2", String(e.table.difference), shown(e.table.expected, R.table_units)],
        ["curve", String(e.curve.difference), shown(e.curve.expected, R.curve_units)],
        ["curve − table", "", signed(shown(gap / R.curve_units, R.curve_units))]
      ]);
      showPair(own, opp, day, plain);
      return "rules: " + ruleSet(day, "standard", plain).name;
    }, ["ex-result", "ex-pair"]);
  }

  function gameRows() { return Array.prototype.slice.call(byId("ch-games").querySelectorAll("tr")); }
  function addGame() {
    var body = byId("ch-games"), n = body.querySelectorAll("tr").length + 1;
    var tr = document.createElement("tr");
    tr.innerHTML = '<th scope="row">' + n + '</th>' +
      '<td><input type="text" inputmode="numeric" size="6" aria-label="Opponent\'s rating, game ' + n + '" class="ch-opp"></td>' +
      '<td><select class="ch-score" aria-label="Score, game ' + n + '"><option value="1">1 (win)</option>' +
      '<option value="0.5">½ (draw)</option><option value="0">0 (loss)</option></select></td>';
    body.appendChild(tr);
  }
  function showChange() {
    report("change", function () {
      var own = ratingValue("ch-own"), opps = [], scores = [];
      gameRows().forEach(function (tr, i) {
        var input = tr.querySelector(".ch-opp"), text = input.value.trim();
        var what = "Opponent's rating, game " + (i + 1) + ": " + text;
        if (text === "") { return; }
        if (!/^[0-9]{1,6}$/.test(text)) { input.setAttribute("aria-invalid", "true"); fail(what + " is not a whole number"); }
        if (Number(text) > R.max_rating) {
          input.setAttribute("aria-invalid", "true");
          fail(what + " is not from " + R.min_rating + " to " + R.max_rating);
        }
        opps.push(Number(text));
        scores.push(Number(tr.querySelector(".ch-score").value));
      });
      if (!opps.length) { fail("give an opponent's rating"); }
      var given = byId("ch-k-given").checked;
      var options = { date: dateValue("ch-date"), list: byId("ch-list").value, plain: plainChosen("ch-rules") };
      if (given) { options.k = intValue("ch-k", 1, R.k.max); if (options.k === null) { wrong("ch-k", "K: give a K"); } }
      else { options.games = intValue("ch-played"); options.birth_year = intValue("ch-born"); options.k10 = byId("ch-k10").checked; }
      var c = change(own, opps, scores, options);
      var rows = c.table.games.map(function (g, i) {
        var t = g, cv = c.curve.games[i];
        if (!g.rated) { return [String(i + 1), String(g.opponent), String(g.score), "not rated", "", "", "", ""]; }
        return [String(i + 1), String(g.opponent), String(g.score), String(g.difference),
                shown(t.expected, R.table_units), signed(shown(t.k_dr, R.table_units)),
                shown(cv.expected, R.curve_units), signed(shown(cv.k_dr, R.curve_units))];
      });
      fill(byId("ch-lines"), rows);
      fill(byId("ch-result"), METHODS.map(function (m) {
        var r = c[m], per = unitsOf(m);
        return [m, r.k === null ? "" : String(r.k), signed(shown(r.k_dr, per)),
                r.change > 0 ? "+" + r.change : String(r.change), String(r.new_rating)];
      }));
      /* K before the 700 rule: K of one game (always rated: own against own) */
      var before = change(own, [own], [1], options).table.k;
      return "rules: " + ruleSet(options.date, options.list, options.plain).name +
        (c.table.k === null ? "" : "; K " + c.table.k + (given ? " (given" : " (art. 8.3.3") +
        (c.table.k === before ? ")" : ", after the 700 rule)"));
    }, ["ch-lines", "ch-result"]);
  }
  function showPerformance() {
    report("performance", function () {
      var text = byId("pf-opps").value.trim();
      if (!/^[0-9]{1,6}( *, *[0-9]{1,6})*$/.test(text)) {
        wrong("pf-opps", labelOf("pf-opps") + ": " + text + " is not a list of ratings such as 1500,1700");
      }
      var opps = text.split(",").map(function (s) { return Number(s.trim()); });
      opps.forEach(function (r) {
        if (r > R.max_rating) { wrong("pf-opps", labelOf("pf-opps") + ": " + r + " is not from " + R.min_rating + " to " + R.max_rating); }
      });
      var typed = byId("pf-score").value.trim(), scoreText = typed.replace("½", ".5");
      if (!/^([0-9]{1,4}(\.[05])?|\.5)$/.test(scoreText)) { wrong("pf-score", "Score: " + typed + " is not a score such as 1.5"); }
      if (Number(scoreText) > opps.length) {
        wrong("pf-score", "Score: " + typed + " is more than " + opps.length + (opps.length === 1 ? " game gives" : " games give"));
      }
      var p = performance(opps, Number(scoreText), { rating: intValue("pf-rating", R.min_rating, R.max_rating) });
      var names = { fide: "FIDE (table 8.1.1)", own: "own rating + dp", algorithm_400: "algorithm of 400" };
      fill(byId("pf-result"), Object.keys(p).map(function (m) {
        return [names[m], String(p[m].performance)].concat(["ra", "p", "dp"].map(function (x) {
          return p[m][x] === undefined ? "" : x === "p" ? p[m][x] + "%" : String(p[m][x]);
        }));
      }));
      return "";
    }, ["pf-result"]);
  }
  function onChange(formId, run) {
    var form = byId(formId);
    form.addEventListener("input", run);
    form.addEventListener("change", run);
    form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
  }
  function toggleK() {
    var given = byId("ch-k-given").checked;
    byId("ch-k-fixed").hidden = !given;
    byId("ch-k-rules").hidden = given;
  }
  /* find an opponent by name: the search box's index and folding (assets/search.js), the
     ratings of the site's newest list (assets/newest-ratings.js), both loaded when used */
  function newestRatings(then) {
    if (window.ratingsNewest) { then(); return; }
    var script = document.createElement("script");
    script.src = "assets/newest-ratings.js";
    script.onload = then;
    document.head.appendChild(script);
  }
  function pickOpponent(rating) {
    var empty = gameRows().filter(function (tr) { return tr.querySelector(".ch-opp").value.trim() === ""; })[0];
    if (!empty) { addGame(); empty = gameRows()[gameRows().length - 1]; }
    empty.querySelector(".ch-opp").value = String(rating);
    byId("ch-find").value = "";
    byId("ch-found").hidden = true;
    byId("ch-found").textContent = "";
    showChange();
  }
  function findOpponents() {
    var text = byId("ch-find").value, list = byId("ch-found");
    if (!window.ratingsSearch || text.trim() === "") { list.hidden = true; list.textContent = ""; return; }
    window.ratingsSearch.load(function () {
      newestRatings(function () {
        if (byId("ch-find").value !== text) { return; }
        var found = (window.ratingsSearch.find(text) || []).filter(function (p) {
          return Object.prototype.hasOwnProperty.call(window.ratingsNewest, String(p[0]));
        }).slice(0, 10);
        list.textContent = "";
        found.forEach(function (p) {
          var rating = window.ratingsNewest[String(p[0])];
          var item = document.createElement("li");
          var button = document.createElement("button");
          button.type = "button";
          button.textContent = p[1] + " (" + rating + ")";
          button.addEventListener("click", function () { pickOpponent(rating); });
          item.appendChild(button);
          list.appendChild(item);
        });
        if (!found.length) {
          var none = document.createElement("li");
          none.textContent = "No player rated on the newest list found";
          list.appendChild(none);
        }
        list.hidden = false;
      });
    });
  }
  /* a player's page opens the calculator with the player's rating, K and games
     (?rating=1608&k=20&games=45&list=standard): the next event's games to be added */
  var given = {};
  window.location.search.replace(/^\?/, "").split("&").forEach(function (pair) {
    var kv = pair.split("=");
    if (kv[0]) { given[kv[0]] = decodeURIComponent(kv[1] || ""); }
  });
  for (var i = 0; i < 3; i += 1) { addGame(); }
  if (/^[0-9]{1,4}$/.test(given.rating || "")) {
    byId("ch-own").value = given.rating;
    if (/^[0-9]{1,3}$/.test(given.k || "")) { byId("ch-k").value = given.k; byId("ch-k-given").checked = true; }
    if (/^[0-9]{1,6}$/.test(given.games || "")) { byId("ch-played").value = given.games; }
    if (["standard", "rapid", "blitz"].indexOf(given.list) !== -1) { byId("ch-list").value = given.list; }
  } else {
    gameRows()[0].querySelector(".ch-opp").value = "1400";
  }
  byId("ch-find").addEventListener("input", findOpponents);
  ["ex-date", "ch-date"].forEach(function (id) { if (!byId(id).value) { byId(id).value = today(); } });
  byId("ch-add").addEventListener("click", function () { addGame(); });
  byId("ch-k-given").addEventListener("change", toggleK);
  byId("ch-k-rules-on").addEventListener("change", toggleK);
  toggleK();
  onChange("calc-expected", showExpected);
  onChange("calc-change", showChange);
  onChange("calc-performance", showPerformance);
  document.documentElement.classList.add("calc-ready");
  showExpected(); showChange(); showPerformance();
}());
