"""No shell pipeline in scripts/ or benchmarks/ whose success depends on SIGPIPE timing.

Under `set -o pipefail` a pipeline fails when any member fails, and a producer whose reader exits
before the end of its input (`grep -q` at the first match, `head` after its lines) dies of SIGPIPE
when it writes again: whether it had finished writing is a race. `make ez-demo` failed one run in
two that way (issue 41). A reader that consumes all its input (`grep PATTERN > /dev/null`,
`sed -n 1,Np`) has no such race; this test fails on the early-exit forms.
"""

import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# a pipe into grep with -q (alone or among other letters), -m or -l; a pipe into head
EARLY_EXIT = [
    re.compile(r"\|\s*grep\s+(-[A-Za-z]*[qml][A-Za-z]*\b)"),
    re.compile(r"\|\s*head\b"),
]


def shell_files():
    for top in ("scripts", "benchmarks"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if d not in ("results", "target", "__pycache__")]
            for name in filenames:
                if name.endswith(".sh"):
                    yield os.path.join(dirpath, name)


def offending_lines(path):
    out = []
    with open(path, encoding="utf-8") as f:
        previous = ""
        for number, line in enumerate(f, 1):
            code = line.split("#", 1)[0] if line.lstrip().startswith("#") else line
            # a pipeline continued on the next line starts that line with '|'
            joined = (previous.rstrip().rstrip("\\") + " " + code) if code.lstrip().startswith("|") else code
            if any(p.search(joined) for p in EARLY_EXIT):
                out.append("%s:%d: %s" % (os.path.relpath(path, ROOT), number, line.rstrip()))
            previous = code
    return out


class ShellPipelineTest(unittest.TestCase):
    def test_no_reader_exits_before_its_input_ends(self):
        found = [l for p in shell_files() for l in offending_lines(p)]
        self.assertEqual([], found, "early-exit readers in pipelines (use grep ... > /dev/null, sed -n 1,Np)")

    def test_the_check_finds_the_forms_it_forbids(self):
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as t:
            t.write('tail log | grep -q "x" || fail\nls | head -1\nx | grep -qv y\n  | grep -q z \\\n')
            t.write('ok | grep "x" > /dev/null\n# a comment | head -1\nls | sed -n 1,1p\n')
        try:
            self.assertEqual([1, 2, 3, 4], [int(l.split(":")[1]) for l in offending_lines(t.name)])
        finally:
            os.unlink(t.name)


if __name__ == "__main__":
    unittest.main()
