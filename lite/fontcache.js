// Pyodide's Matplotlib builds its font list on the first import of every browser session and
// says so on stderr ("Matplotlib is building the font cache; this may take a moment."), a pink
// box under the first cell of every lesson. lite/build.py runs this script with Node on the
// site's own Pyodide distribution (the verified files) to build that list once, at build time:
//   node lite/fontcache.js <pyodide dist dir>   prints {"name": ..., "text": ...} as JSON
// Pyodide's Matplotlib keeps the list next to its font_manager.py (matplotlib/fontlist.json).
const path = require("path");
const dist = path.resolve(process.argv[2]);
const { loadPyodide } = require(path.join(dist, "pyodide.js"));

(async () => {
  const py = await loadPyodide({ indexURL: dist + path.sep, stdout: () => {}, stderr: () => {} });
  await py.loadPackage(["matplotlib"], { messageCallback: () => {} });
  const result = py.runPython(`
import json, pathlib
import matplotlib, matplotlib.font_manager as fm
cache = pathlib.Path(fm.__file__).parent / "fontlist.json"
assert cache.is_file(), f"Pyodide's matplotlib {matplotlib.__version__} wrote no {cache}"
json.dumps({"name": str(cache.relative_to(pathlib.Path(matplotlib.__file__).parents[1])),
            "matplotlib": matplotlib.__version__, "text": cache.read_text()})
`);
  process.stdout.write(result);
})().catch((err) => { console.error(String(err)); process.exit(1); });
