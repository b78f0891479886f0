// minitape's start-up notice for the JupyterLite site (lite/build.py puts this file next to
// lab/index.html, and a <script> for it into that page, with the messages filled in).
//
// While the notebook's Python kernel starts in the browser (Pyodide, then IPython: tens of
// seconds the first time), a notice in the notebook's language says so, with the seconds
// elapsed; it disappears once the kernel is connected and idle, the state JupyterLab's own
// "Idle" shows. The language is the notebook's folder (lessons/<lang>/...), as lessons.i18n
// picks it in the kernel, else the browser's language, else English. The page also gets
// performance marks, read by benchmarks/lite_startup.py:
//   minitape:notebook-shown   the notebook's cells are on screen
//   minitape:kernel-ready     the kernel is connected and idle (the notice goes away)
(function () {
  "use strict";
  var MESSAGES = __MINITAPE_MESSAGES__;   // {lang: {starting, failed}}, from lite/build.py, with
                                          // the measured seconds (benchmarks/lite_startup.py) in

  function language() {
    var found = null;
    var path = new URLSearchParams(window.location.search).get("path") || "";
    var app = window.jupyterapp;
    var w = app && app.shell && app.shell.currentWidget;
    if (w && w.context && w.context.path) path = w.context.path;
    var m = /(?:^|\/)lessons\/([a-z]{2})\//.exec(path);
    if (m && MESSAGES[m[1]]) found = m[1];
    if (!found) {
      var nav = (navigator.language || "").slice(0, 2).toLowerCase();
      found = MESSAGES[nav] ? nav : "en";
    }
    return found;
  }

  // Only a page that opens a notebook waits for a kernel.
  var opening = /\.ipynb$/.test(new URLSearchParams(window.location.search).get("path") || "");
  var box = null, shown = false, done = false;

  function notice() {
    if (box) return box;
    box = document.createElement("div");
    box.id = "minitape-starting";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    box.style.cssText = "position:fixed;z-index:10000;top:3.2rem;left:50%;transform:translateX(-50%);" +
      "max-width:36rem;padding:.6rem 1rem;border-radius:.4rem;background:#fff8d6;color:#222;" +
      "border:1px solid #d9b400;box-shadow:0 2px 8px rgba(0,0,0,.2);font:14px/1.4 system-ui,sans-serif;" +
      "pointer-events:none";
    document.body.appendChild(box);
    return box;
  }

  function render(key) {
    var lang = language();
    var el = notice();
    el.lang = lang;
    el.setAttribute("data-lang", lang);
    el.textContent = MESSAGES[lang][key] + "  (" +
      Math.round(performance.now() / 1000) + " s)";
  }

  function tick() {
    if (done) return;
    var app = window.jupyterapp;
    var w = app && app.shell && app.shell.currentWidget;
    var ctx = w && w.sessionContext;
    if (!opening && !(ctx && w.context && /\.ipynb$/.test(w.context.path))) {
      setTimeout(tick, 250);
      return;
    }
    if (!shown && document.querySelector(".jp-NotebookPanel .jp-Notebook .jp-Cell")) {
      shown = true;
      performance.mark("minitape:notebook-shown");
    }
    var kernel = ctx && ctx.session && ctx.session.kernel;
    if (kernel && kernel.connectionStatus === "connected" && kernel.status === "idle") {
      done = true;
      performance.mark("minitape:kernel-ready");
      if (box) box.remove();
      box = null;
      return;
    }
    render(kernel && kernel.status === "dead" ? "failed" : "starting");
    setTimeout(tick, 250);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", tick);
  } else {
    tick();
  }
})();
