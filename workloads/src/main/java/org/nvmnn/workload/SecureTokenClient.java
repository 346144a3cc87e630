package org.nvmnn.workload;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.Date;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/**
 * The Kerberos side of make secure-demo: each command logs in from a keytab first (no ticket cache,
 * no kinit), then
 *
 * <ul>
 *   <li>{@code fetch --principal P --keytab K --renewer R --out FILE}: gets an HDFS delegation
 *       token for the default file system and writes it to FILE ({@link
 *       Credentials#writeTokenStorageFile}), the file a token-only client is given;
 *   <li>{@code renew --principal P --keytab K --tokens FILE}: renews every token in FILE (2.7.3
 *       renews only for a Kerberos-authenticated renewer);
 *   <li>{@code cancel --principal P --keytab K --tokens FILE}: cancels them;
 *   <li>{@code mkdir --principal P --keytab K --path D --owner U}: makes D owned by U (as the
 *       superuser P);
 *   <li>{@code probe --principal P --keytab K ARGS...}: {@link ReadyProbe} with that login.
 * </ul>
 *
 * Prints one line per step; exits non-zero on any failure.
 */
public final class SecureTokenClient {
  private SecureTokenClient() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 5 || !args[1].equals("--principal") || !args[3].equals("--keytab")) {
      throw new IllegalArgumentException(
          "usage: SecureTokenClient fetch|renew|cancel|mkdir|probe --principal P --keytab K ...");
    }
    String cmd = args[0];
    String[] rest = Arrays.copyOfRange(args, 5, args.length);
    UserGroupInformation.setConfiguration(new HdfsConfiguration());
    UserGroupInformation.loginUserFromKeytab(args[2], args[4]);
    UserGroupInformation me = UserGroupInformation.getLoginUser();
    System.out.println("logged in from the keytab as " + me);
    Configuration conf = new HdfsConfiguration();
    switch (cmd) {
      case "fetch":
        fetch(conf, Flags.parse(rest, "--renewer", "--out"));
        break;
      case "renew":
        for (Token<?> t : tokens(conf, Flags.parse(rest, "--tokens"))) {
          System.out.println("renewed " + describe(t) + " until " + new Date(t.renew(conf)));
        }
        break;
      case "cancel":
        for (Token<?> t : tokens(conf, Flags.parse(rest, "--tokens"))) {
          t.cancel(conf);
          System.out.println("cancelled " + describe(t));
        }
        break;
      case "mkdir":
        Flags f = Flags.parse(rest, "--path", "--owner");
        try (FileSystem fs = FileSystem.newInstance(conf)) {
          Path p = new Path(f.get("--path", null));
          fs.mkdirs(p);
          fs.setOwner(p, f.get("--owner", null), null);
          System.out.println("made " + p + " owned by " + fs.getFileStatus(p).getOwner());
        }
        break;
      case "probe":
        ReadyProbe.main(rest);
        break;
      default:
        throw new IllegalArgumentException("unknown command " + cmd);
    }
  }

  private static void fetch(Configuration conf, Flags f) throws IOException {
    String renewer = f.get("--renewer", null), out = f.get("--out", null);
    if (renewer == null || out == null) {
      throw new IllegalArgumentException("fetch needs --renewer and --out");
    }
    Credentials creds = new Credentials();
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      Token<?>[] got = fs.addDelegationTokens(renewer, creds);
      if (got == null || got.length == 0) {
        throw new IOException("the NameNode issued no delegation token (is Kerberos on?)");
      }
      for (Token<?> t : got) {
        System.out.println("got " + describe(t) + " for " + t.getService());
      }
    }
    creds.writeTokenStorageFile(new Path(new File(out).toURI()), conf);
    System.out.println("wrote " + creds.numberOfTokens() + " token(s) to " + out);
  }

  private static Iterable<Token<?>> tokens(Configuration conf, Flags f) throws IOException {
    String file = f.get("--tokens", null);
    if (file == null) {
      throw new IllegalArgumentException("--tokens FILE is needed");
    }
    return Credentials.readTokenStorageFile(new File(file), conf).getAllTokens();
  }

  /** "HDFS_DELEGATION_TOKEN #3 (owner client@EXAMPLE.COM, renewer client)". */
  static String describe(Token<?> t) throws IOException {
    if (!DelegationTokenIdentifier.HDFS_DELEGATION_KIND.equals(t.getKind())) {
      return t.getKind().toString();
    }
    DelegationTokenIdentifier id = new DelegationTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(t.getIdentifier())));
    return t.getKind()
        + " #"
        + id.getSequenceNumber()
        + " (owner "
        + id.getOwner()
        + ", renewer "
        + id.getRenewer()
        + ")";
  }
}
