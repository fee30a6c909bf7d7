"use strict";
// What both report pages' scripts use, put before each by core/CMakeLists.txt: the SVG namespace,
// the error hook (data-error on <body>, which the browser tests read) and el(), which makes an
// element (in the SVG namespace for the SVG tags), sets its attributes and text, and appends it.
const SVGNS = "http://www.w3.org/2000/svg";
window.addEventListener("error", function (e) { document.body.setAttribute("data-error", String(e.message)); });

function el(tag, attrs, parent, text) {
  const svg = ["svg", "g", "rect", "circle", "line", "text", "path", "title", "clipPath"].indexOf(tag) >= 0;
  const e = svg ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
