package org.nvmnn.workload;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The "--name value" options of the workload drivers' command lines. Every option takes a value; an
 * option not among the known names, or one without a value, is refused with
 * IllegalArgumentException naming it.
 */
public final class Flags {
  private final Map<String, String> values = new HashMap<>();

  private Flags() {}

  /** Parses {@code args}; {@code known} are the accepted names, with their dashes ("--files"). */
  public static Flags parse(String[] args, String... known) {
    Set<String> names = new HashSet<>(Arrays.asList(known));
    Flags f = new Flags();
    for (int i = 0; i < args.length; i += 2) {
      if (!names.contains(args[i])) {
        throw new IllegalArgumentException(
            "unknown option " + args[i] + "; expected some of " + Arrays.toString(known));
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + args[i] + " needs a value");
      }
      f.values.put(args[i], args[i + 1]);
    }
    return f;
  }

  public String get(String name, String dflt) {
    return values.getOrDefault(name, dflt);
  }

  public int getInt(String name, int dflt) {
    String v = values.get(name);
    return v == null ? dflt : Integer.parseInt(v);
  }

  public long getLong(String name, long dflt) {
    String v = values.get(name);
    return v == null ? dflt : Long.parseLong(v);
  }
}
