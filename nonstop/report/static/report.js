// nonstop report: tooltips for elements with data-tip, and a render check for every chart.
// Plain ES5, no dependencies, no network. Each .chart gets data-rendered="1" once its SVG has
// been laid out with a non-empty box (the headless-browser test reads these attributes).
(function () {
  "use strict";
  var tip = document.createElement("div");
  tip.className = "tip";
  document.body.appendChild(tip);

  function place(e) {
    var pad = 14, w = tip.offsetWidth, h = tip.offsetHeight;
    var x = e.clientX + pad, y = e.clientY + pad;
    if (x + w > window.innerWidth - 4) { x = Math.max(4, e.clientX - w - pad); }
    if (y + h > window.innerHeight - 4) { y = Math.max(4, e.clientY - h - pad); }
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }

  document.addEventListener("mouseover", function (e) {
    var el = e.target && e.target.closest ? e.target.closest("[data-tip]") : null;
    if (!el) { tip.style.display = "none"; return; }
    tip.textContent = el.getAttribute("data-tip");
    tip.style.display = "block";
    place(e);
  });
  document.addEventListener("mousemove", function (e) {
    if (tip.style.display === "block") { place(e); }
  });
  document.addEventListener("mouseleave", function () { tip.style.display = "none"; });

  var charts = document.querySelectorAll(".chart"), rendered = 0;
  for (var i = 0; i < charts.length; i++) {
    var svg = charts[i].querySelector("svg"), ok = false;
    if (svg) {
      var box = svg.getBBox(), rect = svg.getBoundingClientRect();
      ok = box.width > 0 && box.height > 0 && rect.width > 0 && rect.height > 0 &&
        svg.childElementCount > 0;
    }
    charts[i].setAttribute("data-rendered", ok ? "1" : "0");
    if (ok) { rendered++; }
  }
  document.body.setAttribute("data-charts-rendered", String(rendered));
  // the page must not scroll sideways (wide tables scroll inside their card instead)
  document.body.setAttribute("data-page-width", String(document.documentElement.scrollWidth));
  document.body.setAttribute("data-view-width", String(document.documentElement.clientWidth));
})();
