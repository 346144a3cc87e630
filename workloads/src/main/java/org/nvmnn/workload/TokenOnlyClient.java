package org.nvmnn.workload;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/**
 * The token-only side of make secure-demo: run with {@code HADOOP_TOKEN_FILE_LOCATION} naming a
 * token file and no Kerberos credentials (no keytab, no ticket cache), as a YARN task runs. Refuses
 * to run if the login user has Kerberos credentials or holds no HDFS delegation token.
 *
 * <p>{@code --dir D --write NAME}: writes D/NAME (100,000 bytes derived from the name), then reads
 * back every file in D and checks its bytes; {@code --try-renew true} also tries to renew the token
 * and expects the NameNode to refuse (2.7.3 renews only for a Kerberos-authenticated renewer).
 * {@code --expect-refused true}: the first call must be refused (a cancelled token); exits 0 only
 * then. Prints one line per step; exits non-zero on any failure.
 */
public final class TokenOnlyClient {
  private static final int LENGTH = 100_000;

  private TokenOnlyClient() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, "--dir", "--write", "--try-renew", "--expect-refused");
    String dir = f.get("--dir", null);
    if (dir == null) {
      throw new IllegalArgumentException("--dir D is needed");
    }
    if (System.getenv("HADOOP_TOKEN_FILE_LOCATION") == null) {
      throw new IllegalStateException("HADOOP_TOKEN_FILE_LOCATION is not set");
    }
    Configuration conf = new HdfsConfiguration();
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation me = UserGroupInformation.getLoginUser();
    if (me.hasKerberosCredentials()) {
      throw new IllegalStateException(me + " has Kerberos credentials: not a token-only client");
    }
    Token<?> token = null;
    for (Token<?> t : me.getTokens()) {
      if (DelegationTokenIdentifier.HDFS_DELEGATION_KIND.equals(t.getKind())) {
        token = t;
      }
    }
    if (token == null) {
      throw new IllegalStateException("no HDFS delegation token in the token file");
    }
    System.out.println(
        "login user " + me + ", no Kerberos credentials, " + SecureTokenClient.describe(token));

    try (FileSystem fs = FileSystem.newInstance(conf)) {
      if (Boolean.parseBoolean(f.get("--expect-refused", "false"))) {
        try {
          fs.listStatus(new Path(dir));
        } catch (IOException e) {
          System.out.println("refused: " + firstLine(e));
          return;
        }
        System.out.println("FAIL: the token was accepted");
        System.exit(1);
      }
      String name = f.get("--write", null);
      if (name != null) {
        Path p = new Path(dir, name);
        try (FSDataOutputStream out = fs.create(p, false)) {
          out.write(FileContent.bytes(name.hashCode(), LENGTH));
        }
        FileStatus st = fs.getFileStatus(p);
        System.out.println(
            "wrote " + p + " (" + st.getLen() + " bytes, owner " + st.getOwner() + ")");
      }
      int checked = 0;
      for (FileStatus st : fs.listStatus(new Path(dir))) {
        check(fs, st.getPath());
        checked++;
      }
      System.out.println("read back and checked all " + checked + " files in " + dir);
      if (Boolean.parseBoolean(f.get("--try-renew", "false"))) {
        try {
          token.renew(conf);
          System.out.println("FAIL: a token-only client renewed its own token");
          System.exit(1);
        } catch (IOException e) {
          System.out.println("renewing with only the token: refused (" + firstLine(e) + ")");
        }
      }
    }
  }

  private static void check(FileSystem fs, Path p) throws IOException {
    byte[] expected = FileContent.bytes(p.getName().hashCode(), LENGTH);
    byte[] b = new byte[LENGTH];
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.readFully(in, b, 0, LENGTH);
      if (in.read() != -1 || !Arrays.equals(expected, b)) {
        throw new IOException("wrong bytes in " + p);
      }
    }
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return e.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
  }
}
