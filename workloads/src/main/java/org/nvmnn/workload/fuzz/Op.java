package org.nvmnn.workload.fuzz;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One call of a sequence: the {@link Call}, who makes it ({@link Callers}: 0 is the superuser) and
 * its arguments. Its text form is one line, {@code as(1).setOwner("/a", "u", null)}, that {@link
 * OpParser} reads back; tags name the hostile features the generator put into it (not part of the
 * text; they steer the shrinker).
 */
final class Op {
  final Call call;
  final int caller;
  final Object[] args;
  final Set<String> tags;

  Op(Call call, int caller, Object[] args, Set<String> tags) {
    if (args.length != call.params.length) {
      throw new IllegalArgumentException(
          call + " takes " + call.params.length + " arguments, not " + args.length);
    }
    this.call = call;
    this.caller = caller;
    this.args = args;
    this.tags = tags;
  }

  static Op of(Call call, Object... args) {
    return new Op(call, 0, args, new LinkedHashSet<>());
  }

  Op as(int who) {
    return new Op(call, who, args, tags);
  }

  Op tag(String... t) {
    tags.addAll(Arrays.asList(t));
    return this;
  }

  /** Every path the call names, its block and file-id references' paths included. */
  Set<String> paths() {
    Set<String> s = new LinkedHashSet<>();
    for (int i = 0; i < args.length; i++) {
      Object v = args[i];
      if (v == null) {
        continue;
      }
      if (call.params[i].isPath()) {
        s.add((String) v);
      } else if (v instanceof BlockRef && ((BlockRef) v).path() != null) {
        s.add(((BlockRef) v).path());
      } else if (v instanceof FileRef && ((FileRef) v).path != null) {
        s.add(((FileRef) v).path);
      } else if (v instanceof String[]) {
        for (String x : (String[]) v) {
          if (x != null) {
            s.add(x);
          }
        }
      }
    }
    return s;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    if (caller != 0) {
      b.append("as(").append(caller).append(").");
    }
    b.append(call.name());
    if (call == Call.RESTART) {
      return b.toString();
    }
    b.append('(');
    for (int i = 0; i < args.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(call.params[i].print(args[i]));
    }
    return b.append(')').toString();
  }

  /** The line shortened for a report (long strings cut). */
  String brief() {
    String s = toString();
    return s.length() <= 300 ? s : s.substring(0, 280) + "…(" + s.length() + " chars)";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Op && o.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
