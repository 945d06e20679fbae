package dev.varroa.bundle.source;

import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.SourceUnavailableException;
import java.util.Locale;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;
import org.eclipse.jgit.transport.URIish;

/** Words a failed Git transport operation as unavailability, with the fix that fits what JGit reported. */
final class GitUnavailable {
  private GitUnavailable() {}

  /**
   * @param what the operation and its object, e.g. "cannot list the refs of"; the URL follows
   * @param failure what JGit threw; null when the operation "succeeded" without the expected result
   */
  static SourceUnavailableException of(InputRef input, URIish uri, String what, Exception failure, boolean hostKeyRefused) {
    String reason = failure == null ? "" : ": " + FailureMessage.of(failure);
    if (hostKeyRefused) {
      reason = ": the server's host key is not in the given known_hosts (unknown host, or its key changed)" + reason;
    }
    return Unavailable.of(input, what + " " + uri + reason, fix(uri, failure, hostKeyRefused), failure);
  }

  private static String fix(URIish uri, Exception failure, boolean hostKeyRefused) {
    String message = failure == null || failure.getMessage() == null ? "" : failure.getMessage().toLowerCase(Locale.ROOT);
    if (hostKeyRefused) {
      return "add the host key of " + uri.getHost() + " to known_hosts in the Secret (ssh-keyscan"
          + (uri.getPort() > 0 ? " -p " + uri.getPort() : "") + " " + uri.getHost() + "), after checking it out of band";
    }
    if (message.contains("not authorized") || message.contains("authentication") || message.contains("auth fail")) {
      return "check the username and password (or token) in the Secret named by secretRef";
    }
    if (message.contains("cannot log in")) {
      return "check the identity in the Secret named by secretRef: its public key must be allowed to read the repository"
          + " (e.g. as a deploy key), and the password must be the key's passphrase";
    }
    if (causedBy(failure, NoRemoteRepositoryException.class) || message.contains("not found")) {
      return "check the url; a private repository also answers 'not found' to missing or wrong credentials";
    }
    return "check that " + (uri.getHost() == null ? uri.getPath() : uri.getHost()) + " is reachable from the operator;"
        + " the last good render stays in force meanwhile";
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
