// minitape: JupyterLab's menus in the lesson's language, in the JupyterLite site (lite/build.py
// puts this file next to lab/index.html and a <script> for it in that page's <head>, before
// JupyterLite's own config-utils.js, with the locales filled in).
//
// JupyterLite already has what it takes: the language packs the site ships (api/translations/,
// one JSON file per locale, fetched only for the locale in use) and the setting JupyterLab reads
// its language from (@jupyterlab/translation-extension:plugin, "locale"). What it lacks is a way to
// choose that setting from the page's address. config-utils.js merges the site's configuration and
// writes it into #jupyter-config-data before it loads the app's bundle; this script watches that
// element and, when the page opens a lesson (?path=lessons/<lang>/...), adds the lesson's locale
// as the setting's default (settingsOverrides, what overrides.json sets). A language the student
// chose under Settings -> Language is a user setting and still wins over the default. Without a
// lesson in the address (or for English) nothing is changed.
(function () {
  "use strict";
  var LOCALES = __MINITAPE_LOCALES__;   // {lang: JupyterLab locale}, from lite/build.py
  var PLUGIN = "@jupyterlab/translation-extension:plugin";
  var config = document.getElementById("jupyter-config-data");
  var m = /(?:^|\/)lessons\/([a-z]{2})\//.exec(new URLSearchParams(window.location.search).get("path") || "");
  var locale = m && LOCALES[m[1]];
  if (!config || !locale || locale === "en") return;

  var observer = new MutationObserver(function () {
    var data;
    try {
      data = JSON.parse(config.textContent);
    } catch (e) {
      return;                           // not the merged configuration yet
    }
    if (!data.baseUrl) return;          // config-utils writes the merged one, with baseUrl
    observer.disconnect();
    data.settingsOverrides = data.settingsOverrides || {};
    var current = data.settingsOverrides[PLUGIN] || {};
    if (!current.locale) {
      current.locale = locale;
      data.settingsOverrides[PLUGIN] = current;
      config.textContent = JSON.stringify(data);
    }
    window.__minitapeLessonLocale = locale;
  });
  observer.observe(config, { childList: true, characterData: true, subtree: true });
})();
