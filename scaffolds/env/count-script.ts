/**
 * Hidden tests give the agent a count, never their text. This program runs inside the sandbox as the agent's user:
 * it executes the submission, then the test with every `assert` rewritten by Python's own parser into a counted
 * try/except, calls check(entry_point), and prints `MARKER {"passed": K, "total": N, "stopped": ...}`.
 * The count is feedback only; grading never trusts it.
 */
export const COUNT_PY = String.raw`
import ast, json, sys, types

def call(name):
    return ast.Expr(ast.Call(ast.Name(name, ast.Load()), [], []))

class Counted(ast.NodeTransformer):
    def visit_Assert(self, node):
        handler = ast.ExceptHandler(type=ast.Name("Exception", ast.Load()), name=None, body=[call("__counted_fail")])
        return ast.copy_location(ast.Try(body=[node, call("__counted_pass")], handlers=[handler], orelse=[], finalbody=[]), node)

def main():
    spec_path, marker = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    sys.path.extend(spec["sysPath"])
    counts = {"passed": 0, "total": 0, "stopped": None}

    def report():
        sys.stdout.write("\n" + marker + " " + json.dumps(counts) + "\n")
        sys.stdout.flush()

    def passed():
        counts["passed"] += 1
        counts["total"] += 1

    def failed():
        counts["total"] += 1

    module = types.ModuleType("__main__")
    module.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = module
    ns = module.__dict__
    try:
        for path in spec["sources"]:
            with open(path, encoding="utf-8") as f:
                source = f.read()
            try:
                exec(compile(source, path, "exec"), ns)
            except Exception as exc:
                # The agent's own code failing to load is its own business to hear about, in full.
                where = "".join(__import__("traceback").format_exception_only(type(exc), exc)).strip()
                counts["stopped"] = "your code failed before the tests ran: " + where
                report()
                return
        with open(spec["test"], encoding="utf-8") as f:
            tree = ast.fix_missing_locations(Counted().visit(ast.parse(f.read(), spec["test"])))
        ns["__counted_pass"], ns["__counted_fail"] = passed, failed
        exec(compile(tree, spec["test"], "exec"), ns)
        ns["check"](ns[spec["entryPoint"]])
    except SystemExit:
        counts["stopped"] = "the program exited before the tests finished"
    except BaseException as exc:
        counts["stopped"] = "the tests stopped early with " + type(exc).__name__
    report()

main()
`;
