package org.nvmnn.workload.ha;

/**
 * One operation of the HA load, as it is written in the log: "CREATE path length" (a new file of
 * {@code length} bytes, {@link NamedContent} of its path) or "RENAME source target".
 */
final class LoadOp {
  enum Kind {
    CREATE,
    RENAME
  }

  final Kind kind;
  final String path;
  final String target;
  final int length;

  private LoadOp(Kind kind, String path, String target, int length) {
    this.kind = kind;
    this.path = path;
    this.target = target;
    this.length = length;
  }

  static LoadOp create(String path, int length) {
    return new LoadOp(Kind.CREATE, path, null, length);
  }

  static LoadOp rename(String source, String target) {
    return new LoadOp(Kind.RENAME, source, target, 0);
  }

  /** The operation in {@code fields} from index {@code at}: the words {@link #toString} wrote. */
  static LoadOp parse(String[] fields, int at) {
    Kind k = Kind.valueOf(fields[at]);
    return k == Kind.CREATE
        ? create(fields[at + 1], Integer.parseInt(fields[at + 2]))
        : rename(fields[at + 1], fields[at + 2]);
  }

  @Override
  public String toString() {
    return kind == Kind.CREATE ? "CREATE " + path + " " + length : "RENAME " + path + " " + target;
  }
}
