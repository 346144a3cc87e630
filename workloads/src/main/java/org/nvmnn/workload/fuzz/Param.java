package org.nvmnn.workload.fuzz;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.XAttrSetFlag;

/**
 * The type of one argument of a {@link Call}: how it is written in an operation line and read back.
 * Values are plain Java objects (String, Long, Integer, Short, Boolean, an EnumSet of CreateFlag,
 * an Options.Rename[], an enum constant, String[], {@link BlockRef}, {@link FileRef}); a permission
 * is an Integer 0..0xFFFF written in octal.
 */
abstract class Param {
  abstract String print(Object v);

  abstract Object parse(Lexer in);

  /** Whether values of this type are paths (what {@link Op#paths()} collects). */
  boolean isPath() {
    return false;
  }

  /** What a string argument is ("path", "client", "owner", "string"), for tags; else null. */
  String role() {
    return null;
  }

  static final Param STR = new StrParam("string");

  /** A path: a string the shrinker follows. */
  static final Param PATH = new StrParam("path");

  /** A lease holder's client name. */
  static final Param CLIENT = new StrParam("client");

  /** A user or group name given to setOwner. */
  static final Param OWNER = new StrParam("owner");

  private static final class StrParam extends Param {
    private final String role;

    StrParam(String role) {
      this.role = role;
    }

    @Override
    boolean isPath() {
      return role.equals("path");
    }

    @Override
    String role() {
      return role;
    }

    @Override
    String print(Object v) {
      return Text.quote((String) v);
    }

    @Override
    Object parse(Lexer in) {
      return in.string();
    }
  }

  static final Param LONG = numeric(x -> x);

  static final Param INT = numeric(x -> (int) x);

  static final Param SHORT = numeric(x -> (short) x);

  static final Param BOOL =
      new Param() {
        @Override
        String print(Object v) {
          return v.toString();
        }

        @Override
        Object parse(Lexer in) {
          String w = in.ident();
          if (!w.equals("true") && !w.equals("false")) {
            throw in.error("expected true or false");
          }
          return Boolean.valueOf(w);
        }
      };

  /** A permission: 16 bits, written in octal with a leading 0; null allowed. */
  static final Param PERM =
      new Param() {
        @Override
        String print(Object v) {
          return v == null ? "null" : "0" + Integer.toOctalString((Integer) v);
        }

        @Override
        Object parse(Lexer in) {
          if (in.peekIdent("null")) {
            in.ident();
            return null;
          }
          return in.octal();
        }
      };

  static final Param FLAGS =
      new Param() {
        @Override
        @SuppressWarnings("unchecked")
        String print(Object v) {
          List<String> names = new ArrayList<>();
          for (CreateFlag f : (EnumSet<CreateFlag>) v) {
            names.add(f.name());
          }
          return "[" + String.join(",", names) + "]";
        }

        @Override
        Object parse(Lexer in) {
          EnumSet<CreateFlag> s = EnumSet.noneOf(CreateFlag.class);
          for (String n : names(in)) {
            s.add(CreateFlag.valueOf(n));
          }
          return s;
        }
      };

  static final Param XFLAGS =
      new Param() {
        @Override
        @SuppressWarnings("unchecked")
        String print(Object v) {
          List<String> names = new ArrayList<>();
          for (XAttrSetFlag f : (EnumSet<XAttrSetFlag>) v) {
            names.add(f.name());
          }
          return "[" + String.join(",", names) + "]";
        }

        @Override
        Object parse(Lexer in) {
          EnumSet<XAttrSetFlag> s = EnumSet.noneOf(XAttrSetFlag.class);
          for (String n : names(in)) {
            s.add(XAttrSetFlag.valueOf(n));
          }
          return s;
        }
      };

  static final Param RENAME =
      new Param() {
        @Override
        String print(Object v) {
          List<String> names = new ArrayList<>();
          for (Options.Rename r : (Options.Rename[]) v) {
            names.add(r.name());
          }
          return "[" + String.join(",", names) + "]";
        }

        @Override
        Object parse(Lexer in) {
          List<String> n = names(in);
          Options.Rename[] r = new Options.Rename[n.size()];
          for (int i = 0; i < r.length; i++) {
            r[i] = Options.Rename.valueOf(n.get(i));
          }
          return r;
        }
      };

  static final Param STRS =
      new Param() {
        @Override
        String print(Object v) {
          List<String> q = new ArrayList<>();
          for (String s : (String[]) v) {
            q.add(Text.quote(s));
          }
          return "[" + String.join(",", q) + "]";
        }

        @Override
        Object parse(Lexer in) {
          List<String> l = new ArrayList<>();
          in.expect('[');
          if (!in.eat(']')) {
            do {
              l.add(in.string());
            } while (in.eat(','));
            in.expect(']');
          }
          return l.toArray(new String[0]);
        }
      };

  static final Param BLOCK =
      new Param() {
        @Override
        String print(Object v) {
          return v.toString();
        }

        @Override
        Object parse(Lexer in) {
          return BlockRef.parse(in);
        }
      };

  static final Param FILEID =
      new Param() {
        @Override
        String print(Object v) {
          return v.toString();
        }

        @Override
        Object parse(Lexer in) {
          return FileRef.parse(in);
        }
      };

  /** A constant of an enum, or null. */
  static <E extends Enum<E>> Param enumOf(final Class<E> type) {
    return new Param() {
      @Override
      String print(Object v) {
        return v == null ? "null" : ((Enum<?>) v).name();
      }

      @Override
      Object parse(Lexer in) {
        String w = in.ident();
        return w.equals("null") ? null : Enum.valueOf(type, w);
      }
    };
  }

  private static List<String> names(Lexer in) {
    List<String> l = new ArrayList<>();
    in.expect('[');
    if (!in.eat(']')) {
      do {
        l.add(in.ident());
      } while (in.eat(','));
      in.expect(']');
    }
    return l;
  }

  /** A number, printed as is and parsed as a long, then converted. */
  private static Param numeric(java.util.function.LongFunction<Object> convert) {
    return new Param() {
      @Override
      String print(Object v) {
        return v.toString();
      }

      @Override
      Object parse(Lexer in) {
        return convert.apply(in.number());
      }
    };
  }
}
