#!/usr/bin/env python3
"""The HA state and the applied transaction id of a NameNode, read from its /jmx servlet.

Usage:
  ha_poll.py state HOST:PORT     prints the HA state (active, standby, ...) or "down"
  ha_poll.py txid HOST:PORT      prints the last transaction id it applied or wrote, or "down"
  ha_poll.py mode HOST:PORT      prints an NVM NameNode's persistence mode (pmem, emulated, disk), or
                                 "none" (no NvmNamespace bean: a stock NameNode) or "down"
  ha_poll.py until HOST:PORT [--state S] [--txid N] [--pid PID] [--timeout SECONDS] [--interval MS]
      polls until the NameNode reports state S and has applied (or written) transaction N; prints
      "reached <epoch ms> state=<S> txid=<T>" and exits 0. Exits 1, printing "exited" or "timeout
      ...", if the process PID ends or the time runs out first.

HOST:PORT is the NameNode's HTTP address. Two beans are read: NameNodeStatus ("State", which 2.7.3
sets from its HA state) and NameNodeInfo ("JournalTransactionInfo", a JSON string whose
"LastAppliedOrWrittenTxId" is the last transaction the NameNode applied from the journal as standby,
or wrote as active). No JVM is started per poll, so polling every 50 ms costs the machine little.
The mode is the "tag.PersistMode" of an NVM NameNode's NvmNamespace bean (its metrics source; a
second source of the same JVM is NvmNamespace-1, ...).
"""
import json
import os
import sys
import time
import urllib.request

STATUS = "Hadoop:service=NameNode,name=NameNodeStatus"
INFO = "Hadoop:service=NameNode,name=NameNodeInfo"
NVM = "Hadoop:service=NameNode,name=NvmNamespace"


def bean(text, name):
    """The attributes of bean NAME in a /jmx answer, or None."""
    try:
        beans = json.loads(text).get("beans", [])
    except ValueError:
        return None
    for b in beans:
        if b.get("name") == name:
            return b
    return None


def parse_state(text):
    b = bean(text, STATUS)
    return b.get("State") if b else None


def parse_txid(text):
    b = bean(text, INFO)
    if not b or not b.get("JournalTransactionInfo"):
        return None
    try:
        return int(json.loads(b["JournalTransactionInfo"])["LastAppliedOrWrittenTxId"])
    except (ValueError, KeyError, TypeError):
        return None


def parse_mode(text):
    """The persistence mode an NVM NameNode publishes (tag.PersistMode of its first NvmNamespace bean),
    or None."""
    try:
        beans = json.loads(text).get("beans", [])
    except ValueError:
        return None
    for b in beans:
        name = b.get("name", "")
        if (name == NVM or name.startswith(NVM + "-")) and b.get("tag.PersistMode"):
            return b["tag.PersistMode"]
    return None


def satisfied(state, txid, want_state, want_txid):
    if want_state is not None and state != want_state:
        return False
    if want_txid is not None and (txid is None or txid < want_txid):
        return False
    return True


def fetch(addr, bean_name, attribute, timeout=2.0):
    """One attribute of one bean (/jmx?get=BEAN::ATTRIBUTE: the servlet computes no other)."""
    return get(f"http://{addr}/jmx?get={bean_name}::{attribute}", timeout)


def get(url, timeout=2.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.read().decode("utf-8", "replace")
    except OSError:
        return None


def read_mode(addr):
    """The NameNode's persistence mode, "none" for a NameNode without the NVM bean, None if down."""
    if fetch(addr, STATUS, "State") is None:
        return None
    t = get(f"http://{addr}/jmx?qry={NVM}*")
    return (parse_mode(t) or "none") if t is not None else None


def read(addr):
    """(state, txid) of the NameNode at addr; None for what it did not answer."""
    s = fetch(addr, STATUS, "State")
    state = parse_state(s) if s else None
    t = fetch(addr, INFO, "JournalTransactionInfo") if state else None
    return state, (parse_txid(t) if t else None)


def alive(pid):
    return pid is None or os.path.exists(f"/proc/{pid}")


def until(addr, want_state, want_txid, pid, timeout_s, interval_ms):
    deadline = time.time() + timeout_s
    state = txid = None
    while time.time() < deadline:
        if not alive(pid):
            print("exited")
            return 1
        state, txid = read(addr)
        if state is not None and satisfied(state, txid, want_state, want_txid):
            print(f"reached {int(time.time() * 1000)} state={state} txid={txid}")
            return 0
        time.sleep(interval_ms / 1000.0)
    print(f"timeout after {timeout_s} s: state={state} txid={txid}")
    return 1


def main(argv):
    if len(argv) < 3 or argv[1] not in ("state", "txid", "mode", "until"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd, addr, rest = argv[1], argv[2], argv[3:]
    if cmd == "mode":
        print(read_mode(addr) or "down")
        return 0
    if cmd in ("state", "txid"):
        state, txid = read(addr)
        value = state if cmd == "state" else txid
        print("down" if value is None else value)
        return 0
    opts = dict(zip(rest[0::2], rest[1::2]))
    unknown = set(opts) - {"--state", "--txid", "--pid", "--timeout", "--interval"}
    if unknown or len(rest) % 2:
        print(f"bad options: {' '.join(rest)}", file=sys.stderr)
        return 2
    return until(addr, opts.get("--state"), int(opts["--txid"]) if "--txid" in opts else None,
                 opts.get("--pid"), float(opts.get("--timeout", 300)), float(opts.get("--interval", 50)))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
