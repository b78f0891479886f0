// Python bytecode for the site's packages, compiled once at build time by the site's own Pyodide
// (Python 3.12.7, the browser's interpreter) under Node.
//
// No wheel of the Pyodide distribution, nor the course's, carries .pyc files, and the browser's
// file system is new in every session: every session compiled every module it imported from
// source (IPython, prompt_toolkit, NumPy's and Matplotlib's Python, minitape...), CPU in the
// kernel's worker before it is ready and again in the first cell. lite/build.py runs
//   node lite/bytecode.js <pyodide dist dir> <out dir> <package> [<package>...]
// which loads the named packages from the dist's pyodide-lock.json, compiles every .py file each
// installed distribution's RECORD lists into its __pycache__ (PEP 552 unchecked-hash .pyc: used
// without comparing them with the source, whose time stamp changes with every install), and
// writes one archive per distribution, <out>/<canonical name>.zip, holding those .pyc files under
// their site-packages paths, and <out>/python_stdlib.zip: Pyodide's standard library archive with
// a .pyc beside each .py (served as python_stdlib_bytecode.zip, the kernel's stdLibURL). It prints {"<canonical name>": {"files": n, "failed": [...]}} as JSON.
const path = require("path");
const dist = path.resolve(process.argv[2]);
const out = path.resolve(process.argv[3]);
const packages = process.argv.slice(4);
const { loadPyodide } = require(path.join(dist, "pyodide.js"));

(async () => {
  const py = await loadPyodide({ indexURL: dist + path.sep, stdout: () => {}, stderr: () => {} });
  await py.loadPackage(packages, { messageCallback: () => {} });
  py.FS.mkdirTree("/bytecode-out");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: out }, "/bytecode-out");
  py.globals.set("PACKAGES", py.toPy(packages));
  const result = py.runPython(`
import importlib.metadata, importlib.util, json, py_compile, re, sys, sysconfig, zipfile
from pathlib import Path

site = Path(sysconfig.get_paths()["purelib"])
def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()

report = {}
for d in importlib.metadata.distributions(path=[str(site)]):
    name = canonical(d.metadata["Name"])
    files, failed = [], []
    for f in d.files or ():
        if f.suffix != ".py":
            continue
        src = site / f
        if not src.is_file():
            continue
        cfile = importlib.util.cache_from_source(str(src))
        try:
            py_compile.compile(str(src), cfile=cfile, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        except py_compile.PyCompileError:
            failed.append(str(f))      # a file Python 3.12 cannot compile is never imported either
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
# archive with every entry unchanged, in the same order, plus those .pyc files (compiled under the
# path zipimport gives the source, so tracebacks read the same).
import importlib._bootstrap_external as bx
stdlib = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
failed, n = [], 0
with zipfile.ZipFile(stdlib) as src, zipfile.ZipFile("/bytecode-out/python_stdlib.zip", "w") as dst:
    for info in src.infolist():
        data = src.read(info)
        dst.writestr(info, data, compress_type=info.compress_type)
        if not info.filename.endswith(".py"):
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
json.dumps(report)
`);
  process.stdout.write(result);
})().catch((err) => { console.error(String(err)); process.exit(1); });
