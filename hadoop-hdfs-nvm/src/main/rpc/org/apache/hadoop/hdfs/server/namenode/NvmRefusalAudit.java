package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.net.InetAddress;
import org.apache.hadoop.hdfs.server.namenode.web.resources.NamenodeWebHdfsMethods;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Audit entries for calls NVM mode refuses. 2.7.3 writes an {@code allowed=false} entry for a call
 * it denies; a refused call is not performed either, so it gets the same entry, through the same
 * audit loggers ({@code FSNamesystem.audit} by default, and any configured {@code
 * dfs.namenode.audit.loggers}), for RPC and WebHDFS callers alike.
 */
final class NvmRefusalAudit {
  private NvmRefusalAudit() {}

  static void log(FSNamesystem fsn, String cmd, String src) {
    boolean external = Server.isRpcInvocation() || NamenodeWebHdfsMethods.isWebHdfsInvocation();
    if (!fsn.isAuditEnabled() || !external) {
      return;
    }
    UserGroupInformation ugi;
    try {
      ugi = NameNode.getRemoteUser();
    } catch (IOException e) {
      return; // no caller to name: the refusal itself still reaches the client
    }
    InetAddress addr = Server.getRemoteIp();
    if (addr == null) {
      addr = NamenodeWebHdfsMethods.getRemoteIp();
    }
    for (AuditLogger logger : fsn.getAuditLoggers()) {
      if (logger instanceof HdfsAuditLogger) {
        ((HdfsAuditLogger) logger)
            .logAuditEvent(
                false,
                ugi.toString(),
                addr,
                cmd,
                src,
                null,
                null,
                ugi,
                fsn.getDelegationTokenSecretManager());
      } else {
        logger.logAuditEvent(false, ugi.toString(), addr, cmd, src, null, null);
      }
    }
  }
}
