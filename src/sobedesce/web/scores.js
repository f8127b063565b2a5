// The score table across rounds and a small SVG line chart of each player's score.

import { h } from "./cards.js";
import { num, signed, t } from "./i18n.js";

const START_SCORE = 20;
const COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3"];

// `rounds`: objects with `round`, `deltas` and `scores` (the `round` event's fields).
export function scoreTable(names, rounds) {
  return h(
    "table",
    { class: "score-table", id: "score-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("round_col")), names.map((name) => h("th", { scope: "col", title: name }, h("span", { class: "col-name" }, name))))),
    h(
      "tbody",
      {},
      rounds.map((round) =>
        h(
          "tr",
          { "data-round": round.round },
          h("th", { scope: "row" }, round.round),
          round.scores.map((score, seat) =>
            h("td", { "data-score": score }, num(score), h("small", {}, ` (${signed(round.deltas[seat])})`)),
          ),
        ),
      ),
    ),
  );
}

export function scoreChart(names, rounds, start = START_SCORE) {
  const series = names.map((_, seat) => [start, ...rounds.map((round) => round.scores[seat])]);
  const all = series.flat();
  const top = Math.max(start, ...all);
  const bottom = Math.min(0, ...all);
  const [width, height, pad] = [320, 160, 24];
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, rounds.length);
  const y = (score) => pad / 2 + ((top - score) * (height - pad)) / Math.max(1, top - bottom);
  const svg = (tag, attrs, ...children) => {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
    el.append(...children);
    return el;
  };
  const lines = series.map((points, seat) =>
    svg("polyline", {
      points: points.map((score, i) => `${x(i)},${y(score)}`).join(" "),
      fill: "none",
      stroke: COLOURS[seat],
      "stroke-width": 2.5,
      "stroke-dasharray": DASHES[seat],
    }),
  );
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("chart_title"), class: "score-chart" },
    svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), stroke: "#999", "stroke-dasharray": "3 3" }),
    svg("text", { x: 2, y: y(0) + 4, "font-size": 10, fill: "#555" }, "0"),
    svg("text", { x: 2, y: y(top) + 4, "font-size": 10, fill: "#555" }, num(top)),
    ...lines,
  );
  const legend = h(
    "ul",
    { class: "legend" },
    names.map((name, seat) =>
      h("li", { title: name }, h("span", { class: "swatch", style: `background:${COLOURS[seat]}` }), h("span", { class: "legend-name" }, name)),
    ),
  );
  return h("figure", { class: "chart" }, chart, h("figcaption", {}, t("chart_title")), legend);
}
