package org.nvmnn.workload.fuzz;

/**
 * A file-id argument: {@code id("/f")}, the inode id this NameNode last returned for /f (create,
 * append, getFileInfo), or a literal number (0 is HdfsConstants.GRANDFATHER_INODE_ID: "check by
 * path only"). An id for a path never seen resolves to 0.
 */
final class FileRef {
  final String path;
  final long literal;

  private FileRef(String path, long literal) {
    this.path = path;
    this.literal = literal;
  }

  static FileRef of(String path) {
    return new FileRef(path, 0);
  }

  static FileRef literal(long id) {
    return new FileRef(null, id);
  }

  long resolve(Bindings b) {
    if (path == null) {
      return literal;
    }
    Long id = b.fileId(path);
    return id == null ? 0 : id;
  }

  @Override
  public String toString() {
    return path == null ? Long.toString(literal) : "id(" + Text.quote(path) + ")";
  }

  static FileRef parse(Lexer in) {
    if (in.peekIdent("id")) {
      in.ident();
      in.expect('(');
      String p = in.string();
      in.expect(')');
      return of(p);
    }
    return literal(in.number());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileRef && o.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
