// Python bytecode for what the site's kernel and the lessons import, compiled once at build time
// by the site's own Pyodide (Python 3.12.7, the browser's interpreter) under Node.
//
// No wheel of the Pyodide distribution, nor the course's, carries .pyc files, and the browser's
// file system is new in every session: every session compiled every module it imported from
// source (IPython, prompt_toolkit, NumPy's and Matplotlib's Python, minitape...), CPU in the
// kernel's worker before it is ready and again in the first cell. lite/build.py runs
//   node lite/bytecode.js <pyodide dist dir> <out dir> <plan.json>
// where plan.json is {"packages": [...], "preload": [...], "lessons": [[name, [cell, ...]], ...]}.
// It loads the packages from the dist's pyodide-lock.json, starts the kernel's Python as
// jupyterlite-pyodide-kernel does (import piplite.piplite, import pyodide_kernel, in the lessons'
// folder), runs every code cell of every lesson given (errors are reported, not fatal: a cell
// that needs the browser only loses its imports), and then compiles exactly the modules that
// were imported (sys.modules) to PEP 552 unchecked-hash .pyc files (used without comparing them
// with the source, whose time stamp changes with every install). Modules nothing imported get no
// bytecode: Python compiles them from source, as before, if a student's code ever imports one.
// It writes one archive per distribution that has any, <out>/<canonical name>.zip, holding those
// .pyc files under their site-packages paths, and <out>/python_stdlib.zip: Pyodide's standard
// library archive, every entry unchanged and in order, plus a .pyc beside each imported .py
// (served as python_stdlib_bytecode.zip, the kernel's stdLibURL). It prints, as JSON,
// {"report": {"<canonical name>": {"files": n, "failed": [...]}}, "modules": n, "cells": n,
// "cell_errors": [...], "seconds": s}.
const fs = require("fs");
const path = require("path");
const dist = path.resolve(process.argv[2]);
const out = path.resolve(process.argv[3]);
const plan = JSON.parse(fs.readFileSync(process.argv[4], "utf-8"));
const { loadPyodide } = require(path.join(dist, "pyodide.js"));

(async () => {
  const started = Date.now();
  const py = await loadPyodide({ indexURL: dist + path.sep, stdout: () => {}, stderr: () => {} });
  await py.loadPackage(plan.packages, { messageCallback: () => {} });
  py.FS.mkdirTree("/bytecode-out");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: out }, "/bytecode-out");
  py.globals.set("LESSONS", py.toPy(plan.lessons));
  // what the kernel's worker runs before it is ready (jupyterlite-pyodide-kernel 0.6.1's
  // initPackageManager and initKernel), in the folder a lesson's kernel starts in
  await py.runPythonAsync(`
import os
os.makedirs("/drive/lessons/en", exist_ok=True)
os.chdir("/drive/lessons/en")
import piplite.piplite
import pyodide_kernel
# no page to send widget messages to: they go nowhere
pyodide_kernel.kernel_instance.interpreter.send_comm = lambda *args, **kwargs: None
`);
  const result = py.runPython(`
import importlib.metadata, importlib.util, json, linecache, py_compile, re, sys, sysconfig, zipfile
from pathlib import Path

# every lesson's code cells, in order, one namespace per lesson (what Run All does); cells are
# registered with linecache as IPython does, so inspect.getsource works on what they define
cell_errors, cells = [], 0
for name, codes in LESSONS:
    namespace = {"__name__": "__main__"}
    for i, code in enumerate(codes):
        filename = f"<{name} cell {i + 1}>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        cells += 1
        try:
            exec(compile(code, filename, "exec"), namespace)
        except BaseException as exc:      # reported; the modules imported before it still count
            cell_errors.append(f"{name} cell {i + 1}: {type(exc).__name__}: {exc}"[:300])

def key(path):      # sysconfig says //lib/python3.12/site-packages, a module's __file__ /lib/...
    return "/" + str(path).lstrip("/")

imported = {key(m.__file__) for m in list(sys.modules.values())
            if isinstance(getattr(m, "__file__", None), str) and m.__file__.endswith(".py")}

site = Path(key(sysconfig.get_paths()["purelib"]))
def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()

report = {}
for d in importlib.metadata.distributions(path=[str(site)]):
    name = canonical(d.metadata["Name"])
    files, failed = [], []
    for f in d.files or ():
        src = site / f
        if f.suffix != ".py" or key(src) not in imported or not src.is_file():
            continue
        cfile = importlib.util.cache_from_source(str(src))
        try:
            py_compile.compile(str(src), cfile=cfile, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        except py_compile.PyCompileError:
            failed.append(str(f))
            continue
        files.append(Path(cfile))
    if files:
        with zipfile.ZipFile(f"/bytecode-out/{name}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
            for c in sorted(files):
                info = zipfile.ZipInfo(str(c.relative_to(site)), date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, c.read_bytes())
    report[name] = {"files": len(files), "failed": failed}

# The standard library: Pyodide writes python_stdlib.zip to /lib/python312.zip and imports from it
# with zipimport, which takes a module's .pyc from beside its .py in the archive. A copy of the
# archive with every entry unchanged, in the same order, plus the imported modules' .pyc files
# (compiled under the path zipimport gives the source, so tracebacks read the same).
import importlib._bootstrap_external as bx
stdlib = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
failed, n = [], 0
with zipfile.ZipFile(stdlib) as src, zipfile.ZipFile("/bytecode-out/python_stdlib.zip", "w") as dst:
    for info in src.infolist():
        data = src.read(info)
        dst.writestr(info, data, compress_type=info.compress_type)
        if not info.filename.endswith(".py") or key(f"{stdlib}/{info.filename}") not in imported:
            continue
        try:
            code = compile(data, f"{stdlib}/{info.filename}", "exec", dont_inherit=True)
        except SyntaxError:
            failed.append(info.filename)
            continue
        pyc = zipfile.ZipInfo(info.filename[:-3] + ".pyc", date_time=info.date_time)
        pyc.compress_type = zipfile.ZIP_DEFLATED
        dst.writestr(pyc, bytes(bx._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)))
        n += 1
report["(standard library)"] = {"files": n, "failed": failed}
json.dumps({"report": report, "modules": len(imported), "cells": cells, "cell_errors": cell_errors})
`);
  const parsed = JSON.parse(result);
  parsed.seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(JSON.stringify(parsed));
})().catch((err) => { console.error(String(err)); process.exit(1); });
