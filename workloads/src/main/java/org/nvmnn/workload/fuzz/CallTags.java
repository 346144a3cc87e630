package org.nvmnn.workload.fuzz;

import java.nio.charset.StandardCharsets;

/**
 * The tags of a call, from its arguments: "nul" (a NUL character anywhere), "long-name" (a path
 * component over 255 UTF-8 bytes), "long-path" (over 7000 characters), "deep" (over 100 levels),
 * "reserved-path" (/.reserved/…), "odd-path" (relative, empty, "//", "/./", "/../", a trailing
 * slash), "long-client", "long-owner", "long-string" (a client name, user or group, or other string
 * over the region's 232-byte string limit), "long-caller" (a caller name past it),
 * "negative-length" (a block length below 0 written, reported or passed). The call builders add the
 * tags no argument shows by itself ("xattr", "acl", "flags", "dir-atime", "type-quota", …).
 */
final class CallTags {
  private CallTags() {}

  /** Adds to {@code op} the tags its arguments call for; returns it. */
  static Op add(Op op) {
    for (int i = 0; i < op.args.length; i++) {
      Object a = op.args[i];
      if (a instanceof String[]) {
        for (String s : (String[]) a) {
          pathTags(op, s);
        }
      }
      if (!(a instanceof String)) {
        continue;
      }
      String s = (String) a;
      if (s.indexOf('\u0000') >= 0) {
        op.tag("nul");
      }
      String role = op.call.params[i].role();
      if (role == null) {
        continue;
      }
      if (role.equals("path")) {
        pathTags(op, s);
      } else if (utf8(s) > 232) {
        op.tag("long-" + role);
      }
    }
    if (op.caller >= 2) {
      op.tag("long-caller");
    }
    for (Object a : op.args) {
      if (a instanceof BlockRef && ((BlockRef) a).setLen != null && ((BlockRef) a).setLen < 0) {
        op.tag("negative-length");
      }
    }
    if ((op.call == Call.dnWrite && (Long) op.args[1] < 0)
        || (op.call == Call.fsync && (Long) op.args[3] < 0)) {
      op.tag("negative-length");
    }
    return op;
  }

  private static void pathTags(Op op, String s) {
    if (s == null) {
      return;
    }
    if (s.indexOf('\u0000') >= 0) {
      op.tag("nul");
    }
    if (s.length() > 7000) {
      op.tag("long-path");
    }
    if (s.startsWith("/.reserved")) {
      op.tag("reserved-path");
    }
    if (!Model.plain(s) && !s.startsWith("/.reserved")) {
      op.tag("odd-path");
    }
    int depth = 0;
    for (String c : s.split("/")) {
      depth++;
      if (utf8(c) > 255) {
        op.tag("long-name");
      }
    }
    if (depth > 100) {
      op.tag("deep");
    }
  }

  /** The UTF-8 length of a string. */
  static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
