package org.nvmnn.workload;

import java.io.File;
import org.apache.hadoop.crypto.key.kms.server.MiniKMS;

/**
 * A Hadoop KMS in a process of its own, for make ez-demo: hadoop-kms 2.7.3's web application
 * (KMSWebApp and its REST resources) in embedded Jetty, as its MiniKMS runs it, with simple
 * authentication, permissive ACLs and its keys in a JCEKS keystore in --conf-dir. Prints "KMS
 * running at <url>" once it serves, then runs until it is killed. The web application is unpacked
 * under target/ in the working directory. Runs with hadoop-kms's classes and tests jars on the
 * class path (nvm-dist/target/kms-lib).
 */
public final class KmsServer {
  private KmsServer() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, "--conf-dir", "--port");
    File dir = new File(f.get("--conf-dir", "kms")).getAbsoluteFile();
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IllegalArgumentException("cannot create " + dir);
    }
    MiniKMS kms = new MiniKMS.Builder().setKmsConfDir(dir).setPort(f.getInt("--port", 0)).build();
    kms.start();
    System.out.println("KMS running at " + kms.getKMSUrl());
    Runtime.getRuntime().addShutdownHook(new Thread(kms::stop));
    Thread.currentThread().join();
  }
}
