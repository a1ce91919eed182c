/* referee report: the one script of every page. */

/* Tables of the leaderboard pages: a click on a heading sorts by that column (again: the other
 * way), a search box keeps the rows whose text holds what is typed, and a button shows the
 * columns hidden by default.  A cell's data-v, when it has one, is what it sorts by.
 */
(function () {
  "use strict";

  function key(cell) {
    var raw = cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent;
    var num = parseFloat(raw);
    return isFinite(num) && /^\s*[-+]?[\d.]/.test(raw) ? num : raw.trim().toLowerCase();
  }

  function sortBy(table, th) {
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var down = th.getAttribute("aria-sort") === "ascending";
    Array.prototype.forEach.call(th.parentNode.children, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", down ? "descending" : "ascending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return {row: row, k: key(row.cells[col]), i: i};
    });
    rows.sort(function (a, b) {
      var x = a.k, y = b.k, c;
      if (typeof x === typeof y) { c = x < y ? -1 : x > y ? 1 : 0; }
      else { c = typeof x === "number" ? -1 : 1; }
      return (down ? -c : c) || a.i - b.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }

  function filter(table, text, count) {
    var words = text.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var hay = row.textContent.toLowerCase();
      var keep = words.every(function (w) { return hay.indexOf(w) >= 0; });
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    if (count) { count.textContent = shown + " of " + table.tBodies[0].rows.length + " rows"; }
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.classList.add("sorts");
      th.title = "sort by this column (click again: the other way)";
      th.addEventListener("click", function () { sortBy(table, th); });
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll("input.filter"), function (box) {
    var table = document.getElementById(box.getAttribute("data-for"));
    var count = document.getElementById(box.getAttribute("data-for") + "-count");
    if (!table) { return; }
    box.addEventListener("input", function () { filter(table, box.value, count); });
  });
  Array.prototype.forEach.call(document.querySelectorAll("button.more-columns"),
    function (button) {
      var table = document.getElementById(button.getAttribute("data-for"));
      if (!table) { return; }
      button.addEventListener("click", function () {
        var wide = table.classList.toggle("wide");
        button.textContent = wide ? "fewer columns" : "all columns";
      });
    });
  /* a line of a crowded chart raised above the others and named while the pointer is on it */
  Array.prototype.forEach.call(document.querySelectorAll("svg.chart"), function (chart) {
    var name = chart.parentNode.querySelector(".chart-name");
    chart.addEventListener("mouseover", function (ev) {
      var line = ev.target;
      if (line.tagName !== "polyline") { return; }
      line.parentNode.appendChild(line);
      if (name) { name.textContent = line.getAttribute("data-name"); }
    });
  });
})();

/* The game viewer of a game page.
 *
 * The page embeds its game as JSON (<script type="application/json" id="game-data">): names,
 * the edition's cards, and the steps, each a line of English and the public events it holds.
 * Folding the events from the start gives the state after every step: money, hand sizes,
 * paintings, the cards played this round, the tiles, and the auction in progress.  Hidden bids
 * are in the data only as the reveal event, so they show only once revealed.
 */
(function () {
  "use strict";

  var dataEl = document.getElementById("game-data");
  if (!dataEl) { return; }
  var G = JSON.parse(dataEl.textContent);
  var N = G.names.length;
  var STEPS = G.steps;
  var COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
  var ARTIST_COLORS = ["#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d68910",
                       "#16a085", "#7f8c8d", "#b03a2e", "#1f618d", "#6e2c00"];
  var TYPE_MARK = {"open": "O", "once-around": "1", "hidden": "H", "fixed-price": "F",
                   "double": "D"};
  var TILE_ROUNDS = 4;

  function el(id) { return document.getElementById(id); }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c];
    });
  }
  function who(seat) { return seat === null || seat === undefined ? "the bank" : G.names[seat]; }
  function artistOf(card) { return G.card_artist[card]; }
  function cardLabel(card) { return G.artists[artistOf(card)] + " (" + G.card_type[card] + ")"; }
  function cardChip(card, extra) {
    var a = artistOf(card);
    return "<span class=\"card" + (extra ? " " + extra : "") + "\" style=\"background:" +
      ARTIST_COLORS[a % ARTIST_COLORS.length] + "\" title=\"" + esc(cardLabel(card)) + "\">" +
      esc(TYPE_MARK[G.card_type[card]] || "?") + "</span>";
  }
  function filled(value) { var a = []; for (var i = 0; i < N; i++) { a.push(value); } return a; }
  function copy(state) { return JSON.parse(JSON.stringify(state)); }

  /* ------------------------------------------------------------ the state after each step */

  function initial() {
    var bought = []; for (var i = 0; i < N; i++) { bought.push([]); }
    return {round: 0, money: filled(G.start_money), hands: filled(0), bought: bought,
            sold: filled(null), played: [], tiles: [], auction: null, roundEnd: null,
            faults: filled(0), retired: filled(false), over: null};
  }

  function fold(s, ev) {
    var a = s.auction;
    switch (ev.type) {
      case "round_started":
        s.round = ev.round; s.hands = ev.hand_sizes.slice(); s.played = []; s.auction = null;
        s.roundEnd = null; s.sold = filled(null);
        break;
      case "card_played":
        if (s.hands[ev.seat] > 0) { s.hands[ev.seat] -= 1; }
        s.played.push({card: ev.card, seat: ev.seat, count: ev.count});
        if (a && a.phase === "offer") {
          a.cards.push(ev.card); a.second = ev.seat;
        } else {
          s.auction = {phase: G.card_type[ev.card] === "double" ? "offer" : "played",
                       auctioneer: ev.seat, cards: [ev.card], type: G.card_type[ev.card],
                       bids: [], declined: [], hidden: null, count: ev.count};
        }
        break;
      case "second_card_declined":
        if (a) { a.declined.push(ev.seat); }
        break;
      case "auction_started":
        s.auction = {phase: "bidding", auctioneer: ev.auctioneer, cards: ev.cards.slice(),
                     type: ev.auction_type, bids: [],
                     declined: a && a.phase === "offer" ? a.declined : [],
                     hidden: null, price: null};
        break;
      case "bid":
        if (a) { a.bids.push({seat: ev.seat, amount: ev.amount}); }
        break;
      case "pass":
        if (a) { a.bids.push({seat: ev.seat, pass: true, forced: ev.forced}); }
        break;
      case "price_set":
        if (a) { a.price = ev.price; }
        break;
      case "hidden_bids_revealed":
        if (a) { a.hidden = ev.amounts.slice(); }
        break;
      case "auction_won":
        if (!a || a.phase === "done") {
          a = s.auction = {phase: "done", auctioneer: ev.auctioneer, cards: ev.cards.slice(),
                           type: G.card_type[ev.cards[0]], bids: [], declined: [], hidden: null};
        }
        a.phase = "done"; a.won = {winner: ev.winner, price: ev.price};
        a.cards = ev.cards.slice();
        Array.prototype.push.apply(s.bought[ev.winner], ev.cards);
        break;
      case "payment":
        if (ev.payer !== null) { s.money[ev.payer] -= ev.amount; }
        if (ev.payee !== null) { s.money[ev.payee] += ev.amount; }
        break;
      case "mystery_revealed":
        s.played.push({card: ev.card, seat: ev.seat, count: ev.count, mystery: true});
        break;
      case "mystery_declined":
        break;
      case "round_ended":
        s.tiles[ev.round - 1] = ev.tiles.slice();
        s.roundEnd = {round: ev.round, counts: ev.counts, ranking: ev.ranking,
                      values: ev.values, unsold: ev.unsold};
        s.auction = null;
        break;
      case "paintings_sold":
        s.money[ev.seat] += ev.amount;
        s.sold[ev.seat] = {cards: ev.cards.slice(), amount: ev.amount};
        s.bought[ev.seat] = [];
        break;
      case "game_ended":
        s.over = {money: ev.money.slice(), winners: ev.winners.slice()};
        break;
      default:
        break;
    }
  }

  var states = [];
  (function build() {
    var s = initial();
    for (var i = 0; i < STEPS.length; i++) {
      var step = STEPS[i];
      if (step.k === "fault") { s.faults[step.s] += 1; }
      if (step.k === "retired") { s.retired[step.s] = true; }
      for (var j = 0; j < step.e.length; j++) { fold(s, step.e[j]); }
      states.push(copy(s));
    }
    var last = states.length ? states[states.length - 1].money : [];
    var want = G.result.money;
    if (last.join(",") !== want.join(",")) {
      console.error("viewer: money from the events (" + last.join(", ") +
                    ") differs from the record's result (" + want.join(", ") + ")");
    }
  })();

  /* ------------------------------------------------------------ drawing one step */

  function renderPlayers(s, i) {
    var step = STEPS[i];
    var prev = i > 0 ? states[i - 1] : null;
    var html = "<thead><tr><th>seat</th><th>bot</th><th>money</th><th>hand</th>" +
      "<th>paintings this round</th><th>faults</th></tr></thead><tbody>";
    for (var p = 0; p < N; p++) {
      var cls = [];
      if (step.s === p) { cls.push("actor"); }
      if (s.retired[p]) { cls.push("retired"); }
      var delta = prev ? s.money[p] - prev.money[p] : 0;
      var d = delta ? "<span class=\"delta " + (delta > 0 ? "up\">+" : "down\">") + delta +
        "</span>" : "";
      var paintings = s.bought[p].map(function (c) { return cardChip(c); }).join("");
      if (s.sold[p]) {
        paintings += "<small>sold " + s.sold[p].cards.length + " for " + s.sold[p].amount +
          "</small> " + s.sold[p].cards.map(function (c) { return cardChip(c, "unsold"); }).join("");
      }
      html += "<tr class=\"" + cls.join(" ") + "\"><td>" + p + "</td><td><i class=\"sw\" " +
        "style=\"background:" + COLORS[p % COLORS.length] + "\"></i>" + esc(G.names[p]) +
        (s.retired[p] ? " <span class=\"fault\">retired</span>" : "") + "</td>" +
        "<td class=\"money\"><span id=\"money-" + p + "\" class=\"m\">" + s.money[p] +
        "</span>" + d + "</td><td>" + s.hands[p] + "</td><td>" + (paintings || "-") +
        "</td><td>" + (s.faults[p] ? "<span class=\"fault\">" + s.faults[p] + "</span>" : "0") +
        "</td></tr>";
    }
    el("players").innerHTML = html + "</tbody>";
    var fin = el("final");
    if (s.over) {
      var order = []; for (var q = 0; q < N; q++) { order.push(q); }
      order.sort(function (x, y) {
        return (G.result.ranks[x] - G.result.ranks[y]) || (x - y);
      });
      fin.innerHTML = "<div class=\"box\"><b>Game over.</b> " + order.map(function (q) {
        return "#" + G.result.ranks[q] + " " + esc(G.names[q]) + " <b>" + s.money[q] + "</b>" +
          (G.result.retired.indexOf(q) >= 0 ? " (retired)" : "");
      }).join(", ") + "</div>";
    } else {
      fin.innerHTML = "";
    }
  }

  function renderAuction(s) {
    var a = s.auction;
    var box = el("auction");
    if (!a) {
      box.innerHTML = "<p class=\"note\">" + (s.roundEnd ? "The round is over." :
        "No auction in progress.") + "</p>";
      return;
    }
    var chips = a.cards.map(function (c) { return cardChip(c); }).join("");
    var names = a.cards.map(function (c) { return esc(cardLabel(c)); }).join(" + ");
    var html = "<div class=\"auction\"><div class=\"lot\">" + chips + " " + names + "</div>";
    if (a.phase === "played") {
      html += "<p>" + esc(who(a.auctioneer)) + " played it" +
        (a.count >= 5 ? ": the 5th of its artist this round, so the round ends and it is " +
         "not auctioned." : ".") + "</p>";
    } else if (a.phase === "offer") {
      html += "<p>A double by " + esc(who(a.auctioneer)) + ": waiting for a second card of " +
        "the same artist.</p>";
    } else {
      html += "<p><b>" + esc(a.type) + "</b> auction run by " + esc(who(a.auctioneer)) + "</p>";
    }
    if (a.declined && a.declined.length) {
      html += "<p class=\"note\">No second card from: " +
        a.declined.map(function (p) { return esc(who(p)); }).join(", ") + "</p>";
    }
    if (a.price !== null && a.price !== undefined) {
      html += "<p>Price set at <b>" + a.price + "</b>.</p>";
    }
    var items = [];
    if (a.type === "hidden" && a.phase !== "played" && a.phase !== "offer") {
      if (a.hidden) {
        for (var p = 0; p < a.hidden.length; p++) {
          items.push(esc(who(p)) + " bid <b>" + a.hidden[p] + "</b>");
        }
      } else if (a.phase === "bidding") {
        html += "<p class=\"sealed\">Every player bids at once; the bids are sealed until " +
          "they are revealed.</p>";
      }
    }
    for (var b = 0; b < a.bids.length; b++) {
      var bid = a.bids[b];
      if (bid.pass) {
        items.push(esc(who(bid.seat)) + (bid.forced ? " cannot afford it (passes)" :
          (a.type === "fixed-price" ? " does not buy" : " passes")));
      } else {
        items.push(esc(who(bid.seat)) + " bids <b>" + bid.amount + "</b>");
      }
    }
    if (items.length) { html += "<ul><li>" + items.join("</li><li>") + "</li></ul>"; }
    if (a.won) {
      html += "<div class=\"won\">" + (a.won.price ? esc(who(a.won.winner)) + " buys it for " +
        a.won.price : esc(who(a.won.winner)) + " takes it free") + ".</div>";
    }
    box.innerHTML = html + "</div>";
  }

  function renderBoard(s) {
    el("round-label").textContent = s.round ? "round " + s.round : "";
    var end = s.roundEnd;
    var html = "<thead><tr><th>artist</th>";
    for (var r = 1; r <= TILE_ROUNDS; r++) { html += "<th>R" + r + "</th>"; }
    html += "<th>" + (end ? "sells for" : "tiles so far") + "</th>" +
      "<th>played this round</th></tr></thead><tbody>";
    for (var a = 0; a < G.artists.length; a++) {
      var total = 0;
      var cells = "";
      for (var k = 0; k < TILE_ROUNDS; k++) {
        var row = s.tiles[k];
        var t = row ? row[a] : null;
        if (t) { total += t; }
        cells += "<td>" + (t ? "<span class=\"tile t" + t + "\">" + t + "</span>" :
          (row ? "-" : "")) + "</td>";
      }
      var played = s.played.filter(function (x) { return artistOf(x.card) === a; });
      var chips = played.map(function (x) {
        var unsold = end && end.unsold.indexOf(x.card) >= 0;
        return cardChip(x.card, x.mystery || unsold ? "unsold" : "");
      }).join("");
      var top = end && end.ranking.indexOf(a) >= 0;
      var value = end ? end.values[a] : total;
      html += "<tr" + (top ? " class=\"top\"" : "") + "><td class=\"artist\"><i class=\"sw\" " +
        "style=\"background:" + ARTIST_COLORS[a % ARTIST_COLORS.length] + "\"></i>" +
        esc(G.artists[a]) + "</td>" + cells + "<td class=\"value\">" + value + "</td>" +
        "<td class=\"cards\">" + played.length + " " + chips + "</td></tr>";
    }
    el("board").innerHTML = html + "</tbody>";
  }

  /* The money chart: one line per seat over the steps, and a cursor at the current step. */
  var chart = null;
  function buildChart() {
    var W = 900, H = 220, L = 44, R = 10, T = 10, B = 24;
    var hi = 0, lo = 0;
    states.forEach(function (s) {
      s.money.forEach(function (m) { hi = Math.max(hi, m); lo = Math.min(lo, m); });
    });
    if (hi <= lo) { hi = lo + 1; }
    var n = Math.max(1, states.length - 1);
    function x(i) { return L + (W - L - R) * i / n; }
    function y(v) { return T + (H - T - B) * (1 - (v - lo) / (hi - lo)); }
    var svg = "<svg class=\"mchart\" viewBox=\"0 0 " + W + " " + H + "\" role=\"img\" " +
      "aria-label=\"money over the game\">";
    var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / 4)));
    while ((hi - lo) / step > 6) { step *= 2; }
    for (var v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      svg += "<line x1=\"" + L + "\" x2=\"" + (W - R) + "\" y1=\"" + y(v).toFixed(1) +
        "\" y2=\"" + y(v).toFixed(1) + "\" stroke=\"#eee\"/><text x=\"" + (L - 6) +
        "\" y=\"" + (y(v) + 4).toFixed(1) + "\" text-anchor=\"end\">" + v + "</text>";
    }
    STEPS.forEach(function (st, i) {
      if (st.k === "round_ended") {
        svg += "<line x1=\"" + x(i).toFixed(1) + "\" x2=\"" + x(i).toFixed(1) + "\" y1=\"" + T +
          "\" y2=\"" + (H - B) + "\" stroke=\"#ccd\" stroke-dasharray=\"3 3\"/>";
      }
    });
    for (var p = 0; p < N; p++) {
      var pts = states.map(function (s, i) {
        return x(i).toFixed(1) + "," + y(s.money[p]).toFixed(1);
      }).join(" ");
      svg += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + COLORS[p % COLORS.length] +
        "\" points=\"" + pts + "\"><title>" + esc(G.names[p]) + "</title></polyline>";
    }
    svg += "<text x=\"" + L + "\" y=\"" + (H - 6) + "\">step 1</text><text x=\"" + (W - R) +
      "\" y=\"" + (H - 6) + "\" text-anchor=\"end\">step " + states.length + "</text>";
    svg += "<line id=\"cursor\" y1=\"" + T + "\" y2=\"" + (H - B) + "\" stroke=\"#233554\" " +
      "stroke-width=\"1.5\"/></svg><div class=\"legend\">" + G.names.map(function (name, q) {
        return "<span class=\"key\"><i style=\"background:" + COLORS[q % COLORS.length] +
          "\"></i>" + esc(name) + "</span>";
      }).join("") + "</div>";
    el("money-chart").innerHTML = svg;
    chart = {x: x, W: W, L: L, R: R, n: n};
    el("money-chart").querySelector("svg").addEventListener("click", function (ev) {
      var box = ev.currentTarget.getBoundingClientRect();
      var fx = (ev.clientX - box.left) / box.width * W;
      go(Math.round((fx - L) / (W - L - R) * n));
    });
  }

  function buildLog() {
    el("log").innerHTML = STEPS.map(function (st, i) {
      return "<li data-i=\"" + i + "\" class=\"" + esc(st.k) + "\">" + esc(st.t) + "</li>";
    }).join("");
    el("log").addEventListener("click", function (ev) {
      var li = ev.target.closest("li");
      if (li) { go(parseInt(li.getAttribute("data-i"), 10)); }
    });
  }

  var current = -1;
  function go(i) {
    if (!STEPS.length) { return; }
    i = Math.max(0, Math.min(STEPS.length - 1, i));
    var s = states[i];
    var step = STEPS[i];
    current = i;
    document.body.setAttribute("data-step", String(i));
    el("step-counter").textContent = (i + 1) + " / " + STEPS.length;
    el("slider").value = String(i);
    var text = el("step-text");
    text.textContent = step.t;
    text.className = "step-text " + step.k;
    el("first").disabled = el("prev").disabled = i === 0;
    el("next").disabled = el("last").disabled = i === STEPS.length - 1;
    renderPlayers(s, i);
    renderAuction(s);
    renderBoard(s);
    var cursor = document.getElementById("cursor");
    if (cursor && chart) {
      cursor.setAttribute("x1", chart.x(i).toFixed(1));
      cursor.setAttribute("x2", chart.x(i).toFixed(1));
    }
    var log = el("log");
    var old = log.querySelector("li.current");
    if (old) { old.classList.remove("current"); }
    var li = log.children[i];
    if (li) {
      li.classList.add("current");
      var top = li.offsetTop - log.offsetTop;
      if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - li.offsetHeight) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 2);
      }
    }
  }

  function start() {
    if (!STEPS.length) {
      el("step-text").textContent = "This record has no steps.";
      return;
    }
    buildChart();
    buildLog();
    el("first").addEventListener("click", function () { go(0); });
    el("prev").addEventListener("click", function () { go(current - 1); });
    el("next").addEventListener("click", function () { go(current + 1); });
    el("last").addEventListener("click", function () { go(STEPS.length - 1); });
    el("slider").addEventListener("input", function (ev) {
      go(parseInt(ev.target.value, 10));
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
      var moves = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0,
                   End: STEPS.length - 1};
      if (Object.prototype.hasOwnProperty.call(moves, ev.key)) {
        ev.preventDefault();
        go(moves[ev.key]);
      }
    });
    var m = /step=(\d+)/.exec(window.location.hash);
    go(m ? parseInt(m[1], 10) : 0);
  }

  start();
})();
