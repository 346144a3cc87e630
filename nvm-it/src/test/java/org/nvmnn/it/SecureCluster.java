package org.nvmnn.it;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * A Kerberos realm for a secure MiniDFSCluster in NVM mode: a real KDC ({@link MiniKdc}, in this
 * JVM), keytabs for the HDFS service, for SPNEGO and for a client user, and the configuration 2.7.3
 * needs to run a secure DataNode without root — SASL on data transfer ({@code
 * dfs.data.transfer.protection=authentication}), HTTPS only, with keystores from {@link
 * KeyStoreTestUtil} — as upstream's {@code SaslDataTransferTestCase} sets it up.
 *
 * <p>The NameNode and the DataNode share the principal {@code hdfs/localhost}, as in upstream's
 * secure MiniDFSCluster tests: in one JVM each logs in with {@code
 * UserGroupInformation.loginUserFromKeytab}, which replaces the process-wide login user, and the
 * NameNode's RPC server accepts Kerberos connections with the credentials of the login user of the
 * moment. Tried with a second principal {@code dn/localhost} for the DataNode: from the DataNode's
 * start on, the NameNode refused every Kerberos client ("GSS initiate failed"). The process demo
 * ({@code scripts/demo/secure-demo.sh}) gives each its own principal.
 *
 * <p>The JVM needs {@code --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED} on JDK 9
 * and later: MiniKdc and hadoop-auth's {@code KerberosUtil} call {@code sun.security.krb5.Config}
 * by reflection (the root pom's {@code jdk17.opens} has it).
 */
public final class SecureCluster {
  private final MiniKdc kdc;
  private final File dir;

  /** The HDFS service principal (NameNode and DataNode), {@code hdfs/localhost@REALM}. */
  public final String hdfsPrincipal;

  /** The SPNEGO principal of the web servers, {@code HTTP/localhost@REALM}. */
  public final String httpPrincipal;

  /** The client user's principal, {@code client@REALM}; its short name is {@link #CLIENT}. */
  public final String clientPrincipal;

  /** Keytab files of the three principals. */
  public final File hdfsKeytab, httpKeytab, clientKeytab;

  /** The client user's short name (owner of its tokens, and their renewer). */
  public static final String CLIENT = "client";

  private SecureCluster(File dir) throws Exception {
    this.dir = dir;
    FileUtil.fullyDelete(dir);
    if (!new File(dir, "kdc").mkdirs()) {
      throw new IllegalStateException("cannot create " + dir);
    }
    kdc = new MiniKdc(MiniKdc.createConf(), new File(dir, "kdc"));
    kdc.start();
    restrictEnctypes(kdc.getKrb5conf());
    hdfsKeytab = new File(dir, "hdfs.keytab");
    httpKeytab = new File(dir, "http.keytab");
    clientKeytab = new File(dir, "client.keytab");
    kdc.createPrincipal(hdfsKeytab, "hdfs/localhost");
    kdc.createPrincipal(httpKeytab, "HTTP/localhost");
    kdc.createPrincipal(clientKeytab, CLIENT);
    hdfsPrincipal = "hdfs/localhost@" + kdc.getRealm();
    httpPrincipal = "HTTP/localhost@" + kdc.getRealm();
    clientPrincipal = CLIENT + "@" + kdc.getRealm();
  }

  /** The encryption types both JDK 17 and MiniKdc's ApacheDS 2.0.0-M15 know. */
  public static final String ENCTYPES = "aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96";

  /**
   * Limits the JVM's Kerberos client to {@link #ENCTYPES} in the krb5.conf MiniKdc wrote, and makes
   * the JVM read it again. JDK 17 also lists the RFC 8009 types (aes128-cts-hmac-sha256-128,
   * aes256-cts-hmac-sha384-192) in every ticket request; ApacheDS 2.0.0-M15 does not know them and
   * answers each service-ticket request with "Message stream modified (41)" (the body checksum it
   * computes does not match), so no client gets a service ticket. The keytab login (AS exchange)
   * works either way; naming a single RFC 8009 type brings the error back, disabling referrals
   * ({@code sun.security.krb5.disableReferrals}) does not remove it.
   */
  private static void restrictEnctypes(File krb5conf) throws Exception {
    String conf = new String(Files.readAllBytes(krb5conf.toPath()), StandardCharsets.UTF_8);
    String types =
        "[libdefaults]\n    default_tkt_enctypes = "
            + ENCTYPES
            + "\n    default_tgs_enctypes = "
            + ENCTYPES
            + "\n    permitted_enctypes = "
            + ENCTYPES;
    if (!conf.contains("[libdefaults]")) {
      throw new IllegalStateException("no [libdefaults] in " + krb5conf + ":\n" + conf);
    }
    Files.write(
        krb5conf.toPath(), conf.replace("[libdefaults]", types).getBytes(StandardCharsets.UTF_8));
    // MiniKdc makes the JVM read the file the same way after it wrote it
    Class.forName("sun.security.krb5.Config").getMethod("refresh").invoke(null);
  }

  /**
   * Starts a KDC with its files under {@code <test.build.dir>/<test class name>} (emptied first)
   * and makes the keytabs.
   */
  public static SecureCluster start(Class<?> testClass) throws Exception {
    return new SecureCluster(
        new File(
            System.getProperty("test.build.dir", "target/test-dir"), testClass.getSimpleName()));
  }

  /**
   * A secure configuration in NVM mode ({@link NvmCluster#nvmConf(Configuration)}): Kerberos, block
   * access tokens, SASL data transfer, HTTPS only with keystores written for {@code testClass} (its
   * ssl-client.xml and ssl-server.xml go into the directory of its class files), WebHDFS on.
   */
  public Configuration conf(Class<?> testClass) throws Exception {
    Configuration conf = new HdfsConfiguration();
    SecurityUtil.setAuthenticationMethod(AuthenticationMethod.KERBEROS, conf);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, hdfsPrincipal);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, hdfsKeytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, hdfsPrincipal);
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, hdfsKeytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, httpPrincipal);
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY, httpKeytab.getPath());
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    conf.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "authentication");
    conf.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, HttpConfig.Policy.HTTPS_ONLY.name());
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTPS_ADDRESS_KEY, "localhost:0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HTTPS_ADDRESS_KEY, "localhost:0");
    conf.setInt(CommonConfigurationKeys.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SASL_KEY, 10);
    conf.setBoolean(DFSConfigKeys.DFS_WEBHDFS_ENABLED_KEY, true);
    // 2.7.3's default is TLSv1 only, which JDK 17 disables: the DataNode's HTTPS server (netty,
    // with the protocols SSLFactory enables) could then complete no handshake at all
    conf.set(SSLFactory.SSL_ENABLED_PROTOCOLS, "TLSv1.2");
    File keystores = new File(dir, "keystores");
    if (!keystores.isDirectory() && !keystores.mkdirs()) {
      throw new IllegalStateException("cannot create " + keystores);
    }
    KeyStoreTestUtil.setupSSLConfig(
        keystores.getAbsolutePath(), KeyStoreTestUtil.getClasspathDir(testClass), conf, false);
    return NvmCluster.nvmConf(conf);
  }

  /**
   * A client's configuration: {@code conf} with idle RPC connections closed after half a second. A
   * client's idle connection stays cached for 10 s by default, and one opened before a NameNode
   * restart fails its first call after it with an EOFException (the stock client tries a call
   * once); the NameNode takes longer than half a second to restart.
   */
  public static Configuration clientConf(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECTION_MAXIDLETIME_KEY, 500);
    return c;
  }

  /** The realm, {@code EXAMPLE.COM}. */
  public String realm() {
    return kdc.getRealm();
  }

  public void stop() {
    kdc.stop();
  }
}
