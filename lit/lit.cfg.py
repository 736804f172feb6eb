# lit configuration for perf-instrument's rewrite tests: one test per rule.
import os
import lit.formats

site = lit_config.params.get("site")
if not site:
    lit_config.fatal("run through ctest, or pass --param site=<build>/lit/lit.site.cfg.py")
exec(open(site).read())

config.name = "perf-instrument"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "tools"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.perf_lit_exec_root

tools = os.path.join(config.test_source_root, "tools")
config.substitutions += [
    ("%perf-instrument", config.perf_instrument),
    ("%make-db", "python3 " + os.path.join(tools, "make_db.py")),
    ("%make-tree-db", "python3 " + os.path.join(tools, "make_tree_db.py")),
    ("%compile-all", os.path.join(tools, "compile_all.sh")),
    ("%run-report", os.path.join(tools, "run_report.sh")),
    ("%expect-exit", os.path.join(tools, "expect_exit.sh")),
    ("%rewrite-test", os.path.join(tools, "rewrite_test.sh")),
    ("%FileCheck", config.filecheck),
    # binutils 2.40's addr2line takes GCC 12's DWARF 5 file 1 for the main file (a plain
    # build's header functions too); gdb and LLVM's read it right.
    ("%llvm-addr2line", os.path.join(os.path.dirname(config.filecheck), "llvm-addr2line")),
    ("%inputs", os.path.join(config.test_source_root, "Inputs")),
    ("%perf-version", config.perf_version),
    ("%llvm-version", config.llvm_version),
    ("%perf-include-dir", config.perf_include_dir),
]
config.environment["PERF_INCLUDE_DIR"] = config.perf_include_dir
config.environment["PERF_RUNTIME_LIB_DIR"] = config.perf_runtime_lib_dir
config.environment["PERF_ALLOC_LIB_DIR"] = config.perf_alloc_lib_dir
config.environment["PERF_JSON_CALLS"] = os.path.join(tools, "json_calls.py")
config.environment["PERF_INSTRUMENT"] = config.perf_instrument
config.environment["FILECHECK"] = config.filecheck
