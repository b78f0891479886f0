// minitape: the notebook a student downloads to hand in is named as the lesson (01-gradients.ipynb),
// in the JupyterLite site (lite/build.py puts this file next to lab/index.html, with a <script>
// for it in that page's <head>).
//
// JupyterLite 0.6's File -> Download (the command docmanager:download) saves the file under its
// whole path, lessons/es/01-gradients.ipynb, which the browser turns into
// lessons_es_01-gradients.ipynb; JupyterLab, Binder and JupyterLite's own file browser
// (right-click -> Download) name it 01-gradients.ipynb, and so does JupyterLite from 0.7 on
// (it downloads the file's own address). The command makes a link with that name and clicks
// it; this listener, which sees the click before the browser acts on it, keeps the name's last
// part only, so every route hands in a file with the same name.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target;
    if (link && link.tagName === "A" && link.hasAttribute("download")) {
      var name = link.getAttribute("download");
      if (name.indexOf("/") >= 0) link.setAttribute("download", name.split("/").pop());
    }
  }, true);
})();
