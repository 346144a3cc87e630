#!/usr/bin/env python3
"""check_layers.py OBJECT...: the library's C files call down, never back up.

From the symbols each object file defines and uses (nm), a graph of which file calls which;
any cycle (two files that reach each other) fails, with the calls that close it. ctest runs it
over the objects of hdfsnvm_core; docs/architecture.md lists the layers."""
import collections
import os
import subprocess
import sys


def graph(objects):
    defs, uses = {}, collections.defaultdict(set)
    for o in objects:
        name = os.path.basename(o).split(".")[0]
        for line in subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defs[parts[2]] = name
            elif len(parts) == 2 and parts[0] == "U":
                uses[name].add(parts[1])
    edges = collections.defaultdict(dict)
    for f, syms in uses.items():
        for s in sorted(syms):
            if s in defs and defs[s] != f:
                edges[f].setdefault(defs[s], s)
    return edges


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(objects):
    edges = graph(objects)
    found = cycles(edges)
    for comp in found:
        calls = [f"{a} -> {b} ({edges[a][b]})" for a in comp for b in comp if b in edges.get(a, {})]
        print("calls in a circle: " + "; ".join(calls))
    print(f"{len(objects)} files, {sum(len(v) for v in edges.values())} file-to-file calls, "
          f"{len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    # CMake passes $<TARGET_OBJECTS:...> as one ;-separated argument
    sys.exit(main([o for a in sys.argv[1:] for o in a.split(";") if o]))
