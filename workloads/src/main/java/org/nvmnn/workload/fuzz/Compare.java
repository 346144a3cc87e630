package org.nvmnn.workload.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Compares two results or two namespace listings field by field: text fields must be equal, time
 * fields must be {@linkplain TimeWindows#sameMoment the same moment} of the run.
 */
final class Compare {
  private Compare() {}

  /** The first difference between a (stock) and b (NVM), or null when they agree. */
  static String canon(Canon a, TimeWindows wa, Canon b, TimeWindows wb) {
    return canon(a, wa, "stock", b, wb, "nvm");
  }

  /** The first difference between a and b, named la and lb in the message, or null. */
  static String canon(Canon a, TimeWindows wa, String la, Canon b, TimeWindows wb, String lb) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      String ka = a.keys.get(i);
      String kb = b.keys.get(i);
      if (!ka.equals(kb)) {
        return "field " + ka + " (" + la + ") vs " + kb + " (" + lb + ")";
      }
      Object va = a.vals.get(i);
      Object vb = b.vals.get(i);
      if (va instanceof Canon.Time && vb instanceof Canon.Time) {
        long ta = ((Canon.Time) va).t;
        long tb = ((Canon.Time) vb).t;
        if (!TimeWindows.sameMoment(ta, wa, tb, wb)) {
          return ka
              + ": "
              + la
              + " "
              + ta
              + " (call "
              + describe(wa.position(ta))
              + ") vs "
              + lb
              + " "
              + tb
              + " (call "
              + describe(wb.position(tb))
              + ")";
        }
      } else if (!va.equals(vb)) {
        return ka + ": " + la + " " + brief(va) + " vs " + lb + " " + brief(vb);
      }
    }
    if (a.size() != b.size()) {
      return a.size() > b.size()
          ? la + " has more: " + a.keys.get(n) + "=" + brief(a.vals.get(n))
          : lb + " has more: " + b.keys.get(n) + "=" + brief(b.vals.get(n));
    }
    return null;
  }

  /** The differences between two listings (path -> entry), at most {@code max} of them. */
  static List<String> listings(
      Map<String, Canon> a, TimeWindows wa, Map<String, Canon> b, TimeWindows wb, int max) {
    return listings(a, wa, "stock", b, wb, "nvm", max);
  }

  /** The differences between listings a and b, named la and lb in the messages. */
  static List<String> listings(
      Map<String, Canon> a,
      TimeWindows wa,
      String la,
      Map<String, Canon> b,
      TimeWindows wb,
      String lb,
      int max) {
    List<String> out = new ArrayList<>();
    TreeSet<String> paths = new TreeSet<>(a.keySet());
    paths.addAll(b.keySet());
    for (String p : paths) {
      if (out.size() >= max) {
        out.add("…");
        break;
      }
      Canon ca = a.get(p);
      Canon cb = b.get(p);
      if (ca == null) {
        out.add(Text.brief(p) + ": only in " + lb);
      } else if (cb == null) {
        out.add(Text.brief(p) + ": only in " + la);
      } else {
        String d = canon(ca, wa, la, cb, wb, lb);
        if (d != null) {
          out.add(Text.brief(p) + ": " + d);
        }
      }
    }
    return out;
  }

  /** Whether field {@code k} differs between a and b (absent in one, or a different value). */
  static boolean fieldDiffers(Canon a, TimeWindows wa, Canon b, TimeWindows wb, String k) {
    int i = a.keys.indexOf(k);
    int j = b.keys.indexOf(k);
    if (i < 0 || j < 0) {
      return i != j;
    }
    Object va = a.vals.get(i);
    Object vb = b.vals.get(j);
    if (va instanceof Canon.Time && vb instanceof Canon.Time) {
      return !TimeWindows.sameMoment(((Canon.Time) va).t, wa, ((Canon.Time) vb).t, wb);
    }
    return !va.equals(vb);
  }

  /** The paths at which two listings differ (in one only, or any field). */
  static java.util.Set<String> differingPaths(
      Map<String, Canon> a, TimeWindows wa, Map<String, Canon> b, TimeWindows wb) {
    java.util.Set<String> out = new TreeSet<>();
    TreeSet<String> paths = new TreeSet<>(a.keySet());
    paths.addAll(b.keySet());
    for (String p : paths) {
      Canon ca = a.get(p);
      Canon cb = b.get(p);
      if (ca == null || cb == null || canon(ca, wa, cb, wb) != null) {
        out.add(p);
      }
    }
    return out;
  }

  /** The field a listing difference is about ("owner", "only in stock", …), for signatures. */
  static String aspect(String diff) {
    int colon = diff.indexOf(": ");
    String rest = colon < 0 ? diff : diff.substring(colon + 2);
    if (rest.startsWith("only in")) {
      return rest;
    }
    int sp = rest.indexOf(':');
    String key = sp < 0 ? rest : rest.substring(0, sp);
    int dot = key.lastIndexOf('.');
    key = dot < 0 ? key : key.substring(dot + 1);
    return key.replaceAll("[0-9]+$", "");
  }

  /** The path a listing difference is about (the listing key, unquoted), or null. */
  static String pathOf(String diff) {
    int colon = diff.indexOf(": ");
    if (colon < 0) {
      return null;
    }
    try {
      Lexer l = new Lexer(diff.substring(0, colon));
      String p = l.string();
      return l.atEnd() ? p : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static String describe(long[] pos) {
    if (pos[0] < 0) {
      return "before the run";
    }
    String lo = pos[0] % 2 == 0 ? String.valueOf(pos[0] / 2) : "after " + pos[0] / 2;
    String hi = pos[1] % 2 == 0 ? String.valueOf(pos[1] / 2) : "after " + pos[1] / 2;
    return lo.equals(hi) ? lo : lo + ".." + hi;
  }

  private static String brief(Object v) {
    String s = String.valueOf(v);
    return s.length() <= 200 ? s : s.substring(0, 190) + "…(" + s.length() + " chars)";
  }
}
