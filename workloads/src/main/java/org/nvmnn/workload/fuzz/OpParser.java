package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Reads operation lines ({@link Op#toString()}): {@code [as(N).]call(arg, …)} or {@code RESTART};
 * empty lines and lines starting with {@code #} are skipped, and so is a leading {@code NNNN: } op
 * index as the reports print it.
 */
final class OpParser {
  private OpParser() {}

  static Op parse(String line) {
    String s = line.trim().replaceFirst("^[0-9]+:\\s*", "");
    Lexer in = new Lexer(s);
    int caller = 0;
    String name = in.ident();
    if (name.equals("as")) {
      in.expect('(');
      caller = (int) in.number();
      in.expect(')');
      in.expect('.');
      name = in.ident();
    }
    Call call;
    try {
      call = Call.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw in.error("unknown call " + name);
    }
    Object[] args = new Object[call.params.length];
    if (call != Call.RESTART) {
      in.expect('(');
      for (int i = 0; i < args.length; i++) {
        if (i > 0) {
          in.expect(',');
        }
        args[i] = call.params[i].parse(in);
      }
      in.expect(')');
    }
    if (!in.atEnd()) {
      throw in.error("unexpected text after the call");
    }
    return new Op(call, caller, args, new LinkedHashSet<>());
  }

  static List<Op> parseAll(List<String> lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines) {
      String t = l.trim();
      if (!t.isEmpty() && !t.startsWith("#")) {
        ops.add(parse(t));
      }
    }
    return ops;
  }

  static List<Op> read(Path file) throws IOException {
    return parseAll(Files.readAllLines(file, StandardCharsets.UTF_8));
  }
}
